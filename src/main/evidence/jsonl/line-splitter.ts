// Reading JSON Lines from inflated chunks: whole lines out, at most one partial line held, so a
// timeline of any length passes through in constant memory.

/** A line that cannot be a line: named by its number, from 1. */
export class JsonlLineError extends Error {
  constructor(
    readonly line: number,
    reason: string,
  ) {
    super(`line ${line}: ${reason}`);
    this.name = 'JsonlLineError';
  }
}

const NEWLINE = 0x0a;

/**
 * Splits UTF-8 bytes given in chunks into lines, a batch per chunk. A final newline is not a
 * line; a line longer than `maxLineBytes` is refused as soon as it is, not when it ends.
 */
export class JsonlLineSplitter {
  private readonly lines = new LineDecoder();
  private pending: Buffer = Buffer.alloc(0);

  constructor(private readonly maxLineBytes: number) {}

  /** The lines this chunk completes; the rest waits for the next chunk. */
  push(chunk: Buffer): string[] {
    const last = chunk.lastIndexOf(NEWLINE);
    let batch: string[] = [];
    let rest = chunk;
    if (last !== -1) {
      const head = chunk.subarray(0, last);
      batch = this.lines.decode(this.pending.length > 0 ? Buffer.concat([this.pending, head]) : head);
      this.refuseLong(batch);
      this.pending = Buffer.alloc(0);
      rest = chunk.subarray(last + 1);
    }
    if (this.pending.length + rest.length > this.maxLineBytes) {
      throw new JsonlLineError(this.lines.count + 1, `longer than ${this.maxLineBytes} bytes`);
    }
    // Copied: a view would pin the whole inflated chunk for the sake of a few bytes.
    if (rest.length > 0) this.pending = Buffer.concat([this.pending, rest]);
    return batch;
  }

  /**
   * Whole lines count too, whatever the chunk size. A line is at least as many bytes as UTF-16
   * units and at most three times as many, so only a line near the limit is measured.
   */
  private refuseLong(batch: readonly string[]): void {
    const first = this.lines.count - batch.length;
    for (let i = 0; i < batch.length; i++) {
      const line = batch[i]!;
      if (line.length * 3 <= this.maxLineBytes) continue;
      if (line.length > this.maxLineBytes || Buffer.byteLength(line) > this.maxLineBytes) {
        throw new JsonlLineError(first + i + 1, `longer than ${this.maxLineBytes} bytes`);
      }
    }
  }

  /** The last line, when the bytes did not end with a newline. */
  end(): string[] {
    return this.pending.length > 0 ? this.lines.decode(this.pending) : [];
  }
}

/**
 * Turns runs of whole lines into strings with one UTF-8 decode per run instead of one per line.
 * A newline byte is never part of a multi-byte sequence, so the run is valid UTF-8 exactly when
 * each of its lines is; only a run that fails is decoded again line by line, to name the line.
 * Each line ends up as a decode of its own would leave it: a final CR and a leading BOM removed.
 */
class LineDecoder {
  private readonly decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  /** Lines decoded so far. */
  count = 0;

  /** The lines of `run`, which holds whole lines without the newline after the last one. */
  decode(run: Buffer): string[] {
    let text: string;
    try {
      text = this.decoder.decode(run);
    } catch {
      throw new JsonlLineError(this.badLine(run), 'not UTF-8');
    }
    const lines = text.split('\n');
    for (let i = 0; i < lines.length; i++) {
      let line = lines[i]!;
      if (line.charCodeAt(line.length - 1) === 0x0d) line = line.slice(0, -1);
      if (line.charCodeAt(0) === 0xfeff) line = line.slice(1);
      lines[i] = line;
    }
    this.count += lines.length;
    return lines;
  }

  /** The number of the first line of `run` that is not UTF-8. */
  private badLine(run: Buffer): number {
    let line = this.count;
    let start = 0;
    for (;;) {
      line += 1;
      const newline = run.indexOf(NEWLINE, start);
      const end = newline === -1 ? run.length : newline;
      try {
        this.decoder.decode(run.subarray(start, end));
      } catch {
        return line;
      }
      // Unreachable in practice: the run failed, so one of its lines does.
      if (newline === -1) return line;
      start = newline + 1;
    }
  }
}
