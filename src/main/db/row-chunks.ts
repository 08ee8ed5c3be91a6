/**
 * `items` cut into chunks whose sizes are powers of two, at most `max` (itself one), largest
 * first: a multi-row statement is compiled and prepared once per row count, so a batch of any size
 * is written with a handful of statements from a set of log2(max) + 1 shapes.
 */
export function powerOfTwoChunks<T>(items: readonly T[], max: number): T[][] {
  const chunks: T[][] = [];
  let start = 0;
  for (let size = max; size >= 1; size >>= 1) {
    while (items.length - start >= size) {
      chunks.push(items.slice(start, start + size));
      start += size;
    }
  }
  return chunks;
}
