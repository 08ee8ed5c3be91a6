import type { TimelineTuple } from '../../src/main/evidence/timeline/timeline-entry';

/** A field of a binary COPY row: int4, int8 or text, as PostgreSQL writes them. */
export type CopyField = { int4: number } | { int8: number | bigint } | { text: string };

/** The bytes `COPY … TO STDOUT (FORMAT binary)` sends for `rows`, with a header extension of `extension` bytes. */
export function binaryCopyOf(rows: readonly (readonly CopyField[])[], extension = 0): Buffer {
  const parts: Buffer[] = [Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1')];
  const header = Buffer.alloc(8 + extension);
  header.writeUInt32BE(extension, 4);
  parts.push(header);
  for (const row of rows) {
    const count = Buffer.alloc(2);
    count.writeInt16BE(row.length);
    parts.push(count);
    for (const field of row) {
      let bytes: Buffer;
      if ('int4' in field) {
        bytes = Buffer.alloc(4);
        bytes.writeInt32BE(field.int4);
      } else if ('int8' in field) {
        bytes = Buffer.alloc(8);
        bytes.writeBigInt64BE(BigInt(field.int8));
      } else bytes = Buffer.from(field.text, 'utf8');
      const length = Buffer.alloc(4);
      length.writeInt32BE(bytes.length);
      parts.push(length, bytes);
    }
  }
  parts.push(Buffer.from([0xff, 0xff]));
  return Buffer.concat(parts);
}

/** Timeline tuples as the export's COPY of [seq, timestamp, action, tokens] sends them. */
export const timelineCopyOf = (rows: readonly TimelineTuple[]): Buffer =>
  binaryCopyOf(
    rows.map(([seq, timestamp, action, tokens]) => [
      { int4: seq },
      { int8: timestamp },
      { text: action },
      { int8: tokens },
    ]),
  );
