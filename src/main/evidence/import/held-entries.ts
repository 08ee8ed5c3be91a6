import type { StoredTimelineEntry } from '../timeline/timeline-entry';

// Which timelines of a package are held in memory until its closing transaction writes them
// (held-timelines.ts), and the held entries themselves: no I/O here.

/** A timeline longer than this is staged, never held. */
export const HELD_SCAN_ENTRIES = 5000;
/** Entries held at once by one package; the scans past it stage theirs. */
export const HELD_PACKAGE_ENTRIES = 100_000;

/** A held timeline, copied out of the reused chunks (TimelineSource.read), a column at a time. */
export class HeldEntries {
  readonly timestamps: number[] = [];
  readonly actions: string[] = [];
  readonly tokens: number[] = [];

  get length(): number {
    return this.timestamps.length;
  }

  push(chunk: readonly StoredTimelineEntry[]): void {
    for (const entry of chunk) {
      this.timestamps.push(entry.timestamp);
      this.actions.push(entry.action);
      this.tokens.push(entry.tokens);
    }
  }

  entries(): StoredTimelineEntry[] {
    return this.timestamps.map((timestamp, i) => ({ timestamp, action: this.actions[i]!, tokens: this.tokens[i]! }));
  }
}

/** What one package may still hold in memory. */
export class HoldBudget {
  constructor(
    private left = HELD_PACKAGE_ENTRIES,
    private readonly perScan = HELD_SCAN_ENTRIES,
  ) {}

  /** Holds `chunk` in `held` when both bounds allow it; false (nothing held) when they do not. */
  hold(held: HeldEntries, chunk: readonly StoredTimelineEntry[]): boolean {
    if (held.length + chunk.length > this.perScan || chunk.length > this.left) return false;
    held.push(chunk);
    this.left -= chunk.length;
    return true;
  }

  release(entries: number): void {
    this.left += entries;
  }
}
