/** The 11 bytes every binary COPY output starts with (PostgreSQL docs, "Binary Format"). */
const SIGNATURE = Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1');
/** The signature, then a 32-bit flags field and a 32-bit length of the header extension. */
const HEADER_BYTES = SIGNATURE.length + 8;
const TRAILER = -1;
const TWO_32 = 2 ** 32;

/**
 * The rows of one whole binary `COPY … TO STDOUT (FORMAT binary)` output, read in place: one pass
 * finds where each field starts, and each field is then read from the bytes only when asked, so no
 * row becomes an object and no text a string unless the caller wants it. Every row must have
 * `fields` fields and none may be NULL (what the caller selected is NOT NULL); anything else is
 * not the output of the statement the caller ran, and throws.
 */
export class BinaryCopyRows {
  /** Rows read. */
  readonly length: number;
  /** Where the bytes of field f of row r start: starts[r * fields + f]. */
  private readonly starts: Int32Array;

  constructor(
    readonly bytes: Buffer,
    private readonly fields: number,
  ) {
    if (bytes.length < HEADER_BYTES || !SIGNATURE.equals(bytes.subarray(0, SIGNATURE.length))) {
      throw new Error('not a binary COPY output: no PGCOPY signature');
    }
    let at = HEADER_BYTES + bytes.readUInt32BE(HEADER_BYTES - 4);
    // A first guess of the rows, as if each field held 4 bytes (an int4 or a short text): grown
    // when they are narrower.
    let starts = new Int32Array(Math.max(16, Math.ceil(bytes.length / (2 + 8 * fields))) * fields);
    let rows = 0;
    for (;;) {
      if (at + 2 > bytes.length) throw new Error('binary COPY output ends without its trailer');
      const count = bytes.readInt16BE(at);
      at += 2;
      if (count === TRAILER) break;
      if (count !== fields) throw new Error(`binary COPY row ${rows} has ${count} fields, expected ${fields}`);
      if ((rows + 1) * fields > starts.length) {
        const grown = new Int32Array(starts.length * 2);
        grown.set(starts);
        starts = grown;
      }
      for (let field = 0; field < fields; field++) {
        const length = bytes.readInt32BE(at);
        if (length < 0) throw new Error(`binary COPY row ${rows} has a NULL in field ${field}`);
        at += 4;
        starts[rows * fields + field] = at;
        at += length;
      }
      if (at > bytes.length) throw new Error(`binary COPY row ${rows} runs past the end of the output`);
      rows++;
    }
    this.length = rows;
    this.starts = starts;
  }

  /** Where the bytes of a field start in `bytes`. */
  start(row: number, field: number): number {
    return this.starts[row * this.fields + field]!;
  }

  /** Where the bytes of a field end in `bytes` (exclusive). */
  end(row: number, field: number): number {
    const start = this.start(row, field);
    return start + int32At(this.bytes, start - 4);
  }

  /** An int4 (integer) field. */
  int4(row: number, field: number): number {
    return int32At(this.bytes, this.start(row, field));
  }

  /**
   * An int8 (bigint) field as a number: beyond 2^53 rounded once, to the double that `Number` of
   * its decimal text gives (pg's int8 parser in postgres-connection.ts).
   */
  int8(row: number, field: number): number {
    const at = this.start(row, field);
    return int32At(this.bytes, at) * TWO_32 + (int32At(this.bytes, at + 4) >>> 0);
  }

  /** A text field, decoded as UTF-8 as pg decodes the text of query results. */
  text(row: number, field: number): string {
    return this.bytes.toString('utf8', this.start(row, field), this.end(row, field));
  }
}

// Buffer#readInt32BE checks its argument and bounds on every call; the offsets here are the
// parser's own, inside the bytes.
export function int32At(bytes: Buffer, at: number): number {
  return (bytes[at]! << 24) | (bytes[at + 1]! << 16) | (bytes[at + 2]! << 8) | bytes[at + 3]!;
}
