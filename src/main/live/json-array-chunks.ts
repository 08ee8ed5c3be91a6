/**
 * `items` as JSON arrays of at most `maxBytes` UTF-8 bytes each, in order; an item too large to
 * fit any array alone is left out (the caller's items are small; one must not stall the rest).
 */
export function jsonArrayChunks(items: readonly unknown[], maxBytes: number): string[] {
  const out: string[] = [];
  let batch: string[] = [];
  let size = 2;
  for (const item of items) {
    const json = JSON.stringify(item);
    const bytes = Buffer.byteLength(json);
    if (bytes + 2 > maxBytes) continue;
    if (size + bytes + (batch.length > 0 ? 1 : 0) > maxBytes) {
      out.push(`[${batch.join(',')}]`);
      batch = [];
      size = 2;
    }
    size += bytes + (batch.length > 0 ? 1 : 0);
    batch.push(json);
  }
  if (batch.length > 0) out.push(`[${batch.join(',')}]`);
  return out;
}
