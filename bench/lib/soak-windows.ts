/**
 * What the soak benchmark records, cut into windows of equal length (a minute in a full run): each
 * sample lands in the window of the moment it was taken, so that the first and the last window
 * can be compared.
 */
import { percentile } from './latency';

export interface WindowSummary {
  /** 1-based. */
  index: number;
  submits: number;
  submitsPerSecond: number;
  submitP99: number;
  /** Answers to submits other than 2xx. */
  submitFailures: number;
  listP99: number | null;
  listRequests: number;
  statsP99: number | null;
  statsRequests: number;
  /** The largest WAL file seen, bytes; null where there is none (PostgreSQL). */
  walPeak: number | null;
  /** The median of the server's RSS samples, bytes. */
  rssMedian: number | null;
  rssPeak: number | null;
  /** The server's CPU time in the window, seconds (null where /proc cannot be read). */
  cpuSeconds: number | null;
  /** The CPU time of the database's own processes in the window (PostgreSQL's backends), seconds. */
  databaseCpuSeconds: number | null;
  /** How long the window's import and export took, ms (null when none ran in it). */
  importMs: number | null;
  exportMs: number | null;
}

class Window {
  submitLatencies: number[] = [];
  submitFailures = 0;
  list: number[] = [];
  stats: number[] = [];
  wal: number[] = [];
  rss: number[] = [];
  cpuSeconds: number | null = null;
  databaseCpuSeconds: number | null = null;
  importMs: number | null = null;
  exportMs: number | null = null;
}

/** The `p`-th percentile of `values`, or null without any. */
const nth =
  (p: number) =>
  (values: number[]): number | null =>
    values.length === 0
      ? null
      : percentile(
          [...values].sort((x, y) => x - y),
          p,
        );
/** The 99th percentile of `values`, or null without any. */
export const p99 = nth(99);
const median = nth(50);

const max = (values: number[]): number | null => (values.length === 0 ? null : Math.max(...values));

export class SoakWindows {
  private readonly windows: Window[];
  private startedAt = 0;
  /** The server's and the database's CPU time at the last sample, seconds. */
  private lastCpu: number | null = null;
  private lastDatabaseCpu: number | null = null;

  constructor(
    readonly count: number,
    readonly windowMs: number,
  ) {
    this.windows = Array.from({ length: count }, () => new Window());
  }

  /** The measured time starts now. */
  start(): void {
    this.startedAt = performance.now();
  }

  /** The window `at` (performance.now()) falls into, or null before the start and after the end. */
  private windowAt(at = performance.now()): Window | null {
    if (this.startedAt === 0) return null;
    const index = Math.floor((at - this.startedAt) / this.windowMs);
    return index >= 0 && index < this.count ? this.windows[index]! : null;
  }

  /** The 0-based index of the current window, or -1 outside the measured time. */
  currentIndex(): number {
    const window = this.windowAt();
    return window ? this.windows.indexOf(window) : -1;
  }

  submit(ok: boolean, latencyMs: number): void {
    const window = this.windowAt();
    if (!window) return;
    window.submitLatencies.push(latencyMs);
    if (!ok) window.submitFailures += 1;
  }

  read(kind: 'list' | 'stats', latencyMs: number): void {
    this.windowAt()?.[kind].push(latencyMs);
  }

  /**
   * One sample of the WAL's size, the server's RSS, and the CPU time so far (seconds) of the server
   * and of the database's processes (null for SQLite, which runs in the server): the CPU used since
   * the previous sample counts in the window of this one.
   */
  sample(
    walBytes: number | null,
    rssBytes: number | null,
    cpuSeconds: number | null,
    databaseCpuSeconds: number | null = null,
  ): void {
    const window = this.windowAt();
    const previous = this.lastCpu;
    const previousDatabase = this.lastDatabaseCpu;
    this.lastCpu = cpuSeconds;
    this.lastDatabaseCpu = databaseCpuSeconds;
    if (!window) return;
    if (walBytes !== null) window.wal.push(walBytes);
    if (rssBytes !== null) window.rss.push(rssBytes);
    if (cpuSeconds !== null && previous !== null) window.cpuSeconds = (window.cpuSeconds ?? 0) + cpuSeconds - previous;
    if (databaseCpuSeconds !== null && previousDatabase !== null) {
      window.databaseCpuSeconds = (window.databaseCpuSeconds ?? 0) + databaseCpuSeconds - previousDatabase;
    }
  }

  job(kind: 'importMs' | 'exportMs', index: number, ms: number): void {
    const window = this.windows[index];
    if (window) window[kind] = ms;
  }

  summaries(): WindowSummary[] {
    const seconds = this.windowMs / 1000;
    return this.windows.map((window, i) => ({
      index: i + 1,
      submits: window.submitLatencies.length - window.submitFailures,
      submitsPerSecond: (window.submitLatencies.length - window.submitFailures) / seconds,
      submitP99: p99(window.submitLatencies) ?? Number.NaN,
      submitFailures: window.submitFailures,
      listP99: p99(window.list),
      listRequests: window.list.length,
      statsP99: p99(window.stats),
      statsRequests: window.stats.length,
      walPeak: max(window.wal),
      rssMedian: median(window.rss),
      rssPeak: max(window.rss),
      cpuSeconds: window.cpuSeconds,
      databaseCpuSeconds: window.databaseCpuSeconds,
      importMs: window.importMs,
      exportMs: window.exportMs,
    }));
  }
}
