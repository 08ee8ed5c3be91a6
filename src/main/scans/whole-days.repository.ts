import type { Executor } from '../db/index';
import { absorbWholeDays, restOfDay, splitByDays, type DaySplit, type Span } from './day-split';

/** Whether no scan at all, anyone's, lies in the spans: one seek into the list index each. */
export async function noScansWithin(db: Executor, spans: readonly Span[]): Promise<boolean> {
  const found = await Promise.all(
    spans.map((span) => {
      let query = db.selectFrom('scans').select('scans.id');
      if (span.since !== undefined) query = query.where('scans.created_at', '>=', span.since);
      if (span.until !== undefined) query = query.where('scans.created_at', '<', span.until);
      return query.limit(1).executeTakeFirst();
    }),
  );
  return found.every((row) => row === undefined);
}

/**
 * Reads a range by `read`: its whole UTC days from the day rollups, its partial days from the
 * scans. A partial day whose rest holds no scan at all (the overview's today, up to the next
 * hour) is read as a whole day too, so that a range ending now costs a few rollup rows instead of
 * today's scans. A scan dated in that rest while `read` ran would be counted: the rest is checked
 * again afterwards, and if one came, the range is read again the slow way.
 */
export async function byDays<T>(db: Executor, range: Span, read: (split: DaySplit) => Promise<T>): Promise<T> {
  const split = splitByDays(range);
  const rests = split.edges.map(restOfDay);
  const empty = (): Promise<boolean[]> =>
    Promise.all(rests.map((rest) => (rest ? noScansWithin(db, rest) : Promise.resolve(false))));
  const whole = await empty();
  if (!whole.includes(true)) return read(split);
  const answer = await read(absorbWholeDays(split, whole));
  const still = await empty();
  return whole.every((was, index) => !was || still[index]) ? answer : read(split);
}
