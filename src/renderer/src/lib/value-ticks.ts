/**
 * Ticks of a count axis from 0 to at least `max`: evenly spaced at 1, 2 or 5 times a power of ten
 * (0, 1K, 2K, 3K — never 0, 750, 1.5K, 2.3K), at most `maxTicks` of them, whole numbers only since
 * the axes count tokens, scans and violations.
 */
export function valueTicks(max: number, maxTicks = 5): number[] {
  const intervals = Math.max(1, Math.floor(maxTicks) - 1);
  const top = Number.isFinite(max) && max > 0 ? max : 1;
  let power = 10 ** Math.max(0, Math.floor(Math.log10(top / intervals)));
  let step = power;
  for (;;) {
    step = [1, 2, 5].map((m) => m * power).find((s) => Math.ceil(top / s) <= intervals) ?? 0;
    if (step > 0) break;
    power *= 10;
  }
  const count = Math.ceil(top / step);
  return Array.from({ length: count + 1 }, (_, i) => i * step);
}
