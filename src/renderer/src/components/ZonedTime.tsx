import { useClock } from '../lib/use-clock';

/** An instant as `2026-11-21 04:16:15` in the viewer's zone; the exact UTC instant is its tooltip. */
export function ZonedTime({ value }: { value: string }) {
  const clock = useClock();
  return (
    <time dateTime={value} title={value}>
      {clock.dateTime(value)}
    </time>
  );
}

/** A heading for times, naming the zone once for the whole column or field: "Time (UTC)". */
export function ZonedTitle({ children }: { children: string }) {
  const clock = useClock();
  return (
    <>
      {children} ({clock.label})
    </>
  );
}
