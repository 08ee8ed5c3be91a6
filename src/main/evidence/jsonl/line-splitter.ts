// Reading JSON Lines from inflated chunks: whole lines out as bytes, at most one partial line held,
// so a timeline of any length passes through in constant memory. Lines stay bytes until a reader
// needs a string: a timeline line in our exports' own form is read straight from its bytes
// (quick-timeline-entry.ts), and decoding 80 MB of text into strings that are cut up and thrown
// away cost a tenth of a million-entry import.

/** A line that cannot be a line: named by its number, from 1. */
export class JsonlLineError extends Error {
  constructor(
    readonly line: number,
    readonly reason: string,
  ) {
    super(`line ${line}: ${reason}`);
    this.name = 'JsonlLineError';
  }
}

const NEWLINE = 0x0a;
const CR = 0x0d;

/** What a reader is given for each line: its bytes are `bytes[start, end)`. */
export type LineVisitor = (bytes: Buffer, start: number, end: number, line: number) => void;

/**
 * Whole lines of one chunk, the newline after the last one left out: the line that the chunk
 * completes (`head`, its start held over from the chunks before), then the lines within it
 * (`body`, a view of the chunk: never copied). Each line is handed on as a decode of its own would
 * leave it: a final CR and a leading BOM are not part of it.
 */
export class LineRun {
  private static readonly decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  /** Lines in the run, once a full visit has counted them. */
  private counted = -1;

  constructor(
    private readonly head: Buffer | null,
    private readonly body: Buffer | null,
    /** The number of the run's first line, from 1. */
    readonly firstLine: number,
    private readonly maxLineBytes: number,
  ) {}

  /** Visits every line in order; a line longer than the limit is refused when it is reached. */
  forEach(visit: LineVisitor): void {
    let line = this.firstLine;
    if (this.head) line = this.visitLines(this.head, line, visit);
    if (this.body) line = this.visitLines(this.body, line, visit);
    this.counted = line - this.firstLine;
  }

  /** Visits the lines of `bytes` from number `line` on; answers the number after the last. */
  private visitLines(bytes: Buffer, line: number, visit: LineVisitor): number {
    for (let start = 0; ; line++) {
      const newline = bytes.indexOf(NEWLINE, start);
      let end = newline === -1 ? bytes.length : newline;
      let from = start;
      if (end > from && bytes[end - 1] === CR) end -= 1;
      if (end - from >= 3 && bytes[from] === 0xef && bytes[from + 1] === 0xbb && bytes[from + 2] === 0xbf) from += 3;
      if (end - from > this.maxLineBytes) throw new JsonlLineError(line, `longer than ${this.maxLineBytes} bytes`);
      visit(bytes, from, end, line);
      if (newline === -1) return line + 1;
      start = newline + 1;
    }
  }

  /** The number of the line after the run's last: counted by the visit, or here if none ran. */
  get nextLine(): number {
    if (this.counted === -1) {
      this.counted = this.head ? 1 : 0;
      const body = this.body;
      if (body) {
        this.counted += 1;
        for (let at = body.indexOf(NEWLINE); at !== -1; at = body.indexOf(NEWLINE, at + 1)) this.counted++;
      }
    }
    return this.firstLine + this.counted;
  }

  /** The line `bytes[start, end)` as a string; refused unless it is UTF-8. */
  static text(bytes: Buffer, start: number, end: number, line: number): string {
    try {
      return LineRun.decoder.decode(bytes.subarray(start, end));
    } catch {
      throw new JsonlLineError(line, 'not UTF-8');
    }
  }
}

/**
 * Splits UTF-8 bytes given in chunks into runs of whole lines, a run per chunk. A final newline
 * is not a line; a line longer than `maxLineBytes` is refused as soon as it is, not when it ends.
 */
export class JsonlLineSplitter {
  private pending: Buffer = Buffer.alloc(0);
  private previous: LineRun | null = null;

  constructor(private readonly maxLineBytes: number) {}

  /** The lines this chunk completes, if any; the rest waits for the next chunk. */
  push(chunk: Buffer): LineRun | null {
    const last = chunk.lastIndexOf(NEWLINE);
    let run: LineRun | null = null;
    let rest = chunk;
    if (last !== -1) {
      let head: Buffer | null = null;
      let from = 0;
      if (this.pending.length > 0) {
        const first = chunk.indexOf(NEWLINE);
        head = Buffer.concat([this.pending, chunk.subarray(0, first)]);
        from = first + 1;
        this.pending = Buffer.alloc(0);
      }
      // After a head, the body has lines only if the chunk has another newline.
      const body = head && from > last ? null : chunk.subarray(from, last);
      run = this.run(head, body);
      rest = chunk.subarray(last + 1);
    }
    if (this.pending.length + rest.length > this.maxLineBytes) {
      throw new JsonlLineError(this.nextLine, `longer than ${this.maxLineBytes} bytes`);
    }
    // Copied: a view would pin the whole inflated chunk for the sake of a few bytes.
    if (rest.length > 0) this.pending = Buffer.concat([this.pending, rest]);
    return run;
  }

  /** The last line, when the bytes did not end with a newline. */
  end(): LineRun | null {
    return this.pending.length > 0 ? this.run(null, this.pending) : null;
  }

  /** Runs are read one after the other, so the last one has usually counted its lines by now. */
  private get nextLine(): number {
    return this.previous ? this.previous.nextLine : 1;
  }

  private run(head: Buffer | null, body: Buffer | null): LineRun {
    this.previous = new LineRun(head, body, this.nextLine, this.maxLineBytes);
    return this.previous;
  }
}
