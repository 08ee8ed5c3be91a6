import type { TokenBreakdown, Violation } from '../../../shared/api/scans';
import type { Db, Executor, ScanDraft, ScanRow } from '../../db/index';
import { toViolation } from '../../scans/scan-mapping';
import { findViolations } from '../../scans/scans.repository';
import type { StoredTimelineEntry } from '../timeline/timeline-entry';
import { timelineChunks } from '../timeline/timeline-reads.repository';
import { sameViolations, type PackageScan } from './package-scan';
import type { ScanDefaults } from './scan-check';
import { HeldEntries, type HoldBudget } from './held-entries';
import { stagedTimelineWriter, type StagedTimelineWriter } from './staged-timeline-writer';

// Where a package scan's timeline goes, chunk by chunk, as it is checked: compared with the
// scan already stored under its id, or staged as a new scan's.

/** Key order is not content: `{a, b}` and `{b, a}` are the same breakdown. */
const canonical = (breakdown: TokenBreakdown): string =>
  JSON.stringify(Object.entries(breakdown).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));

/** Where a timeline's chunks go as they are checked. */
export interface TimelineSink {
  /** `defaults` are known from the first chunk on. */
  take(chunk: readonly StoredTimelineEntry[], defaults: ScanDefaults): Promise<void>;
  /** After the whole timeline was taken and checked. */
  end(defaults: ScanDefaults): Promise<void>;
}

/**
 * Compares the package scan with a stored one the importer can see as the timeline streams past (both
 * sides a chunk at a time, so a million entries compare in constant memory). `why` is the first
 * way they differ, or null while they are the same scan. Organization, source and owner are where
 * a scan lives, not what it is, so they do not count.
 */
export class StoredScanComparison implements TimelineSink {
  why: string | null = null;
  /** Whether the violations differ, when they are compared apart from `why` (a pull replaces them alone). */
  violationsDiffer = false;
  private fieldsCompared = false;
  private readonly storedChunks: AsyncGenerator<StoredTimelineEntry[]>;
  private rows: StoredTimelineEntry[] = [];
  private at = 0;
  private index = 0;

  private constructor(
    trx: Executor,
    private readonly stored: ScanRow,
    private readonly row: (defaults: ScanDefaults) => ScanDraft,
  ) {
    this.storedChunks = timelineChunks(trx, stored.id);
  }

  static async start(
    trx: Executor,
    stored: ScanRow,
    scan: PackageScan,
    violations: readonly Violation[],
    row: (defaults: ScanDefaults) => ScanDraft,
    options: { violationsApart?: boolean } = {},
  ): Promise<StoredScanComparison> {
    const comparison = new StoredScanComparison(trx, stored, row);
    const differ = async () => !sameViolations((await findViolations(trx, stored.id)).map(toViolation), violations);
    if (options.violationsApart) comparison.violationsDiffer = await differ();
    if (canonical(JSON.parse(stored.token_breakdown) as TokenBreakdown) !== canonical(scan.tokenBreakdown)) {
      comparison.why = 'token_breakdown differs';
    } else if (!options.violationsApart && (await differ())) {
      comparison.why = 'violations differ';
    } else if (stored.request_count !== scan.evidence.request_count) {
      comparison.why = 'the timeline differs in length';
    }
    return comparison;
  }

  private compareFields(defaults: ScanDefaults): void {
    if (this.fieldsCompared || this.why !== null) return;
    this.fieldsCompared = true;
    const row = this.row(defaults);
    for (const field of ['tool', 'action', 'tokens', 'status', 'created_at'] as const) {
      if (this.stored[field] !== row[field]) {
        this.why = `${field} differs`;
        return;
      }
    }
  }

  async take(chunk: readonly StoredTimelineEntry[], defaults: ScanDefaults): Promise<void> {
    this.compareFields(defaults);
    for (const entry of chunk) {
      if (this.why !== null) return;
      if (this.at === this.rows.length) {
        const next = await this.storedChunks.next();
        if (next.done) {
          this.why = 'the timeline differs in length';
          return;
        }
        this.rows = next.value;
        this.at = 0;
      }
      const mine = this.rows[this.at++]!;
      if (mine.timestamp !== entry.timestamp || mine.action !== entry.action || mine.tokens !== entry.tokens) {
        this.why = `timeline entry ${this.index} differs`;
      }
      this.index += 1;
    }
  }

  async end(defaults: ScanDefaults): Promise<void> {
    this.compareFields(defaults);
    await this.storedChunks.return(undefined);
  }
}

/**
 * A new scan: its timeline held in memory while it is short and the package's `budget` allows
 * (written with the scan by the closing transaction, held-timelines.ts), else staged as it
 * streams; the rest stored once the package is accepted.
 */
export class NewScanWriter implements TimelineSink {
  row: ScanDraft | undefined;
  readonly timeline: StagedTimelineWriter;
  /** The timeline while it is held; null once it is staged (or when nothing may be held). */
  held: HeldEntries | null;

  constructor(
    db: Db,
    readonly id: string,
    readonly violations: readonly Violation[],
    private readonly toRow: (defaults: ScanDefaults) => ScanDraft,
    private readonly budget?: HoldBudget,
  ) {
    this.timeline = stagedTimelineWriter(db);
    this.held = budget ? new HeldEntries() : null;
  }

  async take(chunk: readonly StoredTimelineEntry[], defaults: ScanDefaults): Promise<void> {
    this.row ??= this.toRow(defaults);
    const held = this.held;
    if (held && this.budget?.hold(held, chunk)) return;
    if (held) {
      // Too long to hold: what was held is staged first, and the rest as it comes.
      this.held = null;
      this.budget?.release(held.length);
      await this.timeline.write(held.entries());
    }
    await this.timeline.write(chunk);
  }

  async end(defaults: ScanDefaults): Promise<void> {
    this.row ??= this.toRow(defaults);
    await this.timeline.settled();
  }
}
