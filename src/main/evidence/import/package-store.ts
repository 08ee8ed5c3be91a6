import type { ImportResult } from '../../../shared/api/evidence';
import type { ScanStatus, TokenBreakdown, Violation } from '../../../shared/api/scans';
import { worstSeverityRank } from '../../../shared/policy/severity';
import { type Db, type Executor, inTransaction, type NewScan, type ScanRow } from '../../db/index';
import { toViolation } from '../../scans/scan-mapping';
import {
  findScan,
  findViolations,
  findVisibleScan,
  insertImportedScan,
  insertViolations,
} from '../../scans/scans.repository';
import { DomainError } from '../../http/domain-error';
import { timelineChunks } from '../evidence.repository';
import { ScanCheck, type ScanDefaults } from './package-check';
import { derivedScanId, derivedViolationId } from './import-ids';
import type { InflateBudget } from './package-archive';
import type { StoredEntry } from './package-documents';
import { sameViolations, TIMELINE_CHUNK, type PackageScan } from './package-scan';
import { adoptStagedTimeline, discardStagedTimelines, StagedTimelineWriter } from './staged-timelines.repository';

// An import in one pass: each package scan's timeline is read once, checked as it streams and,
// in the same pass, staged (a new scan: staged-timelines.repository.ts, a short transaction per
// step) or compared with the stored one (an id already there). A refusal found anywhere, up to
// the last entry's digest, throws and what was staged is deleted. Only then does one short
// transaction store every new scan (its row, its staged timeline, pyramid and violations): a
// package changes nothing that anyone can see until it is accepted whole. A conflict (409) is
// held until every scan has been checked: a package that is also invalid is answered 400, as
// when checking came first.

/** The scan row SPEC.md §8 asks for, stored as `id`, with the upstream defaults applied. */
function scanRow(
  scan: PackageScan,
  defaults: ScanDefaults,
  violations: readonly Violation[],
  userId: string,
  id: string,
): NewScan {
  const document = scan.scan;
  return {
    id,
    created_at: defaults.createdAt,
    tool: document?.tool ?? 'unknown',
    action: defaults.action,
    tokens: document?.tokens ?? scan.evidence.total_tokens,
    status: document?.status ?? ('completed' satisfies ScanStatus),
    source: 'imported',
    organization_id: null,
    submitted_by: userId,
    token_breakdown: JSON.stringify(scan.tokenBreakdown),
    // What the evidence claims; ScanCheck.finish() refuses the package before commit unless true.
    request_count: scan.evidence.request_count,
    violation_count: violations.length,
    worst_severity: worstSeverityRank(violations.map((v) => v.severity)),
    package_id: scan.id,
    package_origin: scan.origin,
  };
}

/** Key order is not content: `{a, b}` and `{b, a}` are the same breakdown. */
const canonical = (breakdown: TokenBreakdown): string =>
  JSON.stringify(Object.entries(breakdown).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));

/** Where a timeline's chunks go as they are checked. */
interface TimelineSink {
  /** `defaults` are known from the first chunk on. */
  take(chunk: readonly StoredEntry[], defaults: ScanDefaults): Promise<void>;
  /** After the whole timeline was taken and checked. */
  end(defaults: ScanDefaults): Promise<void>;
}

/**
 * Compares the package scan with a stored one the importer can see as the timeline streams past (both
 * sides a chunk at a time, so a million entries compare in constant memory). `why` is the first
 * way they differ, or null while they are the same scan. Organization, source and owner are where
 * a scan lives, not what it is, so they do not count.
 */
class StoredScanComparison implements TimelineSink {
  why: string | null = null;
  private fieldsCompared = false;
  private readonly storedChunks: AsyncGenerator<StoredEntry[]>;
  private rows: StoredEntry[] = [];
  private at = 0;
  private index = 0;

  private constructor(
    trx: Executor,
    private readonly stored: ScanRow,
    private readonly row: (defaults: ScanDefaults) => NewScan,
  ) {
    this.storedChunks = timelineChunks(trx, stored.id, TIMELINE_CHUNK);
  }

  static async start(
    trx: Executor,
    stored: ScanRow,
    scan: PackageScan,
    violations: readonly Violation[],
    row: (defaults: ScanDefaults) => NewScan,
  ): Promise<StoredScanComparison> {
    const comparison = new StoredScanComparison(trx, stored, row);
    if (canonical(JSON.parse(stored.token_breakdown) as TokenBreakdown) !== canonical(scan.tokenBreakdown)) {
      comparison.why = 'token_breakdown differs';
    } else if (!sameViolations((await findViolations(trx, stored.id)).map(toViolation), violations)) {
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

  async take(chunk: readonly StoredEntry[], defaults: ScanDefaults): Promise<void> {
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

/** A new scan: its timeline staged as it streams, the rest stored by storeNewScan once the package is accepted. */
class NewScanWriter implements TimelineSink {
  row: NewScan | undefined;
  readonly timeline: StagedTimelineWriter;

  constructor(
    db: Db,
    readonly id: string,
    readonly violations: readonly Violation[],
    private readonly toRow: (defaults: ScanDefaults) => NewScan,
  ) {
    this.timeline = new StagedTimelineWriter(db);
  }

  async take(chunk: readonly StoredEntry[], defaults: ScanDefaults): Promise<void> {
    this.row ??= this.toRow(defaults);
    await this.timeline.write(chunk);
  }

  async end(defaults: ScanDefaults): Promise<void> {
    this.row ??= this.toRow(defaults);
  }
}

/**
 * Thrown by the closing transaction when a scan it would store appeared meanwhile (the same
 * user's concurrent import of the same package), or one it found unchanged went: the import is
 * run again from the start, and then compares with what is there now.
 */
export class ImportRaced extends Error {
  override readonly name = 'ImportRaced';
}

/** Stores a new scan whose timeline is staged, inside the import's closing transaction. */
async function storeNewScan(db: Db, trx: Executor, scan: PackageScan, writer: NewScanWriter): Promise<ScanRow> {
  const row = writer.row!;
  if (await findScan(trx, writer.id)) throw new ImportRaced(`scan ${writer.id} was stored meanwhile`);
  await refuseTakenViolationIds(trx, scan.id, scan.evidenceEntry, writer.violations, scan.violations);
  await insertImportedScan(trx, row);
  const staged = writer.timeline.id;
  if (staged !== undefined) {
    await adoptStagedTimeline(trx, staged, writer.id);
    await writer.timeline.grid.store(db, trx, writer.id);
  }
  await insertViolations(
    trx,
    writer.violations.map((violation, i) => ({ ...violation, scan_id: writer.id, seq: i })),
  );
  return {
    ...row,
    organization_id: row.organization_id ?? null,
    package_id: row.package_id ?? null,
    package_origin: row.package_origin ?? null,
  };
}

/** Where an import stores a package scan, and the scan already there, if any. */
interface ImportTarget {
  id: string;
  /** Stored under an id derived from the importer and the package id, not under the package id. */
  derived: boolean;
  existing: ScanRow | undefined;
}

/**
 * docs/security.md, Imported ids: a package id names a scan the importer can see (SPEC.md §2: their
 * own, or one of an organization they own or administer), which the package is compared with; or
 * else the scan is stored under derivedScanId(user, id). A scan with the package id that the
 * importer cannot see changes nothing: it is never compared, never blocks, and both cases run the
 * same two lookups.
 */
async function importTarget(trx: Executor, userId: string, packageId: string, entry: string): Promise<ImportTarget> {
  const literal = await findVisibleScan(trx, packageId, userId);
  if (literal) return { id: packageId, derived: false, existing: literal };
  const id = derivedScanId(userId, packageId);
  const existing = await findScan(trx, id);
  // Nobody can import under another user's derived id; only a scan imported before the rule can hold one.
  if (existing && existing.submitted_by !== userId) {
    throw new DomainError('conflict', `scan ${packageId} cannot be stored: the id it would take is in use`, [
      { field: 'scan_id', entry, message: `${packageId}: the id it would be stored under is in use` },
    ]);
  }
  return { id, derived: true, existing };
}

/**
 * Violation ids are unique across the store. A taken one is named by the package's id for it,
 * never by the scan that holds it, which may be another user's.
 */
async function refuseTakenViolationIds(
  trx: Executor,
  packageScanId: string,
  entry: string,
  violations: readonly Violation[],
  packageViolations: readonly Violation[],
): Promise<void> {
  for (let start = 0; start < violations.length; start += 500) {
    const ids = violations.slice(start, start + 500).map((v) => v.id);
    const taken = await trx.selectFrom('violations').select('id').where('id', 'in', ids).executeTakeFirst();
    if (taken) {
      const packageId = packageViolations[violations.findIndex((v) => v.id === taken.id)]!.id;
      const message = `violation ${packageId} of scan ${packageScanId}: the id it would be stored under is in use`;
      throw new DomainError('conflict', message, [{ field: 'violations', entry, message }]);
    }
  }
}

/** Where a package scan's timeline goes: compared with the scan stored under `id`, or written as it. */
interface Destination {
  id: string;
  sink: StoredScanComparison | NewScanWriter;
}

async function destination(db: Db, userId: string, scan: PackageScan): Promise<Destination> {
  const { id: packageId, evidenceEntry: entry, violations: packaged } = scan;
  const target = await importTarget(db, userId, packageId, entry);
  const violations = target.derived
    ? packaged.map((violation) => ({ ...violation, id: derivedViolationId(userId, violation.id) }))
    : packaged;
  const row = (defaults: ScanDefaults) => scanRow(scan, defaults, violations, userId, target.id);
  if (target.existing) {
    return { id: target.id, sink: await StoredScanComparison.start(db, target.existing, scan, violations, row) };
  }
  await refuseTakenViolationIds(db, packageId, entry, violations, packaged);
  return { id: target.id, sink: new NewScanWriter(db, target.id, violations, row) };
}

const asConflict = (error: unknown): DomainError => {
  if (error instanceof DomainError && error.code === 'conflict') return error;
  throw error;
};

/**
 * Checks and stores package scans as `userId`'s in one read of each timeline; `budget` counts
 * every byte inflated. `onStored` hears of each scan written (not of those found unchanged), once
 * all of them are committed. Throws ImportRaced when the package must be read again.
 */
export async function storePackageScans(
  db: Db,
  userId: string,
  scans: readonly PackageScan[],
  budget: InflateBudget,
  onStored: (row: ScanRow) => void = () => undefined,
): Promise<ImportResult> {
  const imported: string[] = [];
  const unchanged: string[] = [];
  const ids = new Map<string, string>();
  const writers: { scan: PackageScan; writer: NewScanWriter }[] = [];
  const violationIds = new Set<string>();
  let conflict: DomainError | null = null;
  try {
    for (const scan of scans) {
      const check = new ScanCheck(scan, violationIds);
      // After a conflict the package is only checked: nothing more is worth writing.
      const to: Destination | DomainError | null = conflict
        ? null
        : await destination(db, userId, scan).catch(asConflict);
      if (to instanceof DomainError) conflict = to;
      const sink = to instanceof DomainError ? null : to?.sink;
      if (sink instanceof NewScanWriter) writers.push({ scan, writer: sink });
      let defaults: ScanDefaults | undefined;
      for await (const chunk of scan.timeline.read(budget)) {
        check.take(chunk);
        if (sink) await sink.take(chunk, (defaults ??= check.defaults()));
      }
      check.finish();
      if (!sink || !to || to instanceof DomainError) continue;
      await sink.end((defaults ??= check.defaults()));
      ids.set(scan.id, to.id);
      if (sink instanceof NewScanWriter) {
        imported.push(to.id);
      } else if (sink.why === null) {
        unchanged.push(to.id);
      } else {
        // A scan the importer can read: naming what differs tells them nothing they could not see.
        const stored = to.id === scan.id ? '' : ` (stored as ${to.id})`;
        conflict = new DomainError('conflict', `scan ${scan.id}${stored} already exists with different content`, [
          { field: 'scan_id', entry: scan.evidenceEntry, message: `${scan.id}: ${sink.why}` },
        ]);
      }
    }
    if (conflict) throw conflict;
    // Read committed: the import's only rules across servers are keys, checked again here.
    const written = await inTransaction(
      db,
      async (trx) => {
        for (const id of unchanged) {
          if (!(await findVisibleScan(trx, id, userId))) throw new ImportRaced(`scan ${id} went meanwhile`);
        }
        const rows: ScanRow[] = [];
        for (const { scan, writer } of writers) rows.push(await storeNewScan(db, trx, scan, writer));
        return rows;
      },
      { isolation: 'read committed' },
    );
    for (const row of written) onStored(row);
  } catch (error) {
    await discardStagedTimelines(
      db,
      writers.flatMap(({ writer }) => (writer.timeline.id === undefined ? [] : [writer.timeline.id])),
    );
    throw error;
  }
  // fromEntries defines each key as data: a package id `__proto__` stays a key like any other.
  return { imported, unchanged, ids: Object.fromEntries(ids) };
}
