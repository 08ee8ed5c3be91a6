import { progressLine } from './package-format';

/** Where the bar is drawn: process.stderr, or a fake in tests. */
export interface ProgressTarget {
  isTTY?: boolean | undefined;
  columns?: number | undefined;
  write(text: string): unknown;
}

export interface ProgressOptions {
  /** Below this size a transfer is over before a bar would help; nothing is drawn. */
  minBytes?: number;
  /** Redraws at most this often: a terminal flooded with frames slows the upload it reports. */
  intervalMs?: number;
  now?: () => number;
}

/** 1 MiB: a typical package of a few scans uploads in a blink on a local socket. */
export const PROGRESS_MIN_BYTES = 1024 * 1024;

/**
 * An upload's progress on one terminal line, redrawn in place. Only on a TTY: in a pipe or a log,
 * `\r` frames are noise, so there it draws nothing and the result line says it all.
 */
export class ProgressBar {
  private sent = 0;
  private lastDraw = -Infinity;
  private drawn = false;
  private readonly enabled: boolean;
  private readonly intervalMs: number;
  private readonly now: () => number;

  constructor(
    private readonly target: ProgressTarget,
    private readonly label: string,
    private readonly total: number,
    options: ProgressOptions = {},
  ) {
    this.enabled = target.isTTY === true && total >= (options.minBytes ?? PROGRESS_MIN_BYTES);
    this.intervalMs = options.intervalMs ?? 100;
    this.now = options.now ?? Date.now;
  }

  /** Counts bytes handed to the connection; redraws when the interval has passed, and at the end. */
  advance(bytes: number): void {
    this.sent += bytes;
    if (!this.enabled) return;
    const now = this.now();
    if (now - this.lastDraw < this.intervalMs && this.sent < this.total) return;
    this.lastDraw = now;
    this.drawn = true;
    // A pseudo-terminal without a size (script(1), some CI runners) reports 0 columns.
    const columns = (this.target.columns ?? 0) >= 20 ? (this.target.columns as number) : 80;
    this.target.write(`\r${progressLine(this.label, this.sent, this.total, columns)}`);
  }

  /** Erases the bar so that the result line starts on a clean line. */
  finish(): void {
    if (!this.drawn) return;
    this.target.write('\r\x1b[2K');
    this.drawn = false;
  }
}
