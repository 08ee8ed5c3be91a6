import type { ImportResult } from '../../../shared/api/evidence';
import type { ScanStatus, Violation } from '../../../shared/api/scans';
import { worstSeverityRank } from '../../../shared/policy/severity';
import { type Db, inTransaction, nextChangeSeq, type ScanDraft, type ScanRow } from '../../db/index';
import { DomainError } from '../../domain-error';
import { derivedScanId, derivedViolationId } from './import-ids';
import { HoldBudget } from './held-entries';
import { storeNewPackageScans, storeStagedCells } from './held-timelines';
import { placedTarget, refuseTakenIn } from './import-target';
import { findScansById, findTakenViolationIds, findVisibleScansById } from './package-lookups.repository';
import type { PackageScan } from './package-scan';
import { ScanCheck, type ScanDefaults } from './scan-check';
import { discardAll } from './staged-timeline-writer';
import { NewScanWriter, StoredScanComparison } from './store-sinks';
import type { InflateBudget } from './zip/inflate-guard';

// An import in one pass: the store's answers for the whole package are looked up first, a query
// per list of ids (package-lookups.repository.ts); then each package scan's timeline is read
// once, checked as it streams and, in the same pass, held in memory (a new scan's short timeline,
// within held-entries.ts's bounds), staged (a longer one: staged-timelines.repository.ts, a short
// transaction per step) or compared with the stored one (an id already there). A refusal found
// anywhere, up to the last entry's digest, throws and what was staged is deleted. Only then does
// one transaction store every new scan, rows of a kind at once (held-timelines.ts: its row, its
// timeline, pyramid and violations): a package changes nothing that anyone can see until it is
// accepted whole. A conflict (409) is held until every scan has been checked: a package that is
// also invalid is answered 400, as when checking came first.

/**
 * The scan row of a package scan, stored as `id`, with the upstream defaults applied
 * (docs/contract/package-format.md#upstream-packages).
 */
export function scanRow(
  scan: PackageScan,
  defaults: ScanDefaults,
  violations: readonly Violation[],
  userId: string,
  id: string,
): ScanDraft {
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

/**
 * Thrown by the closing transaction when a scan it would store appeared meanwhile (the same
 * user's concurrent import of the same package), or one it found unchanged went: the import is
 * run again from the start, and then compares with what is there now.
 */
export class ImportRaced extends Error {
  override readonly name = 'ImportRaced';
}

/** The scan row as stored, for onStored. */
const storedRow = (row: ScanDraft & { change_seq: number }): ScanRow => ({
  ...row,
  organization_id: row.organization_id ?? null,
  package_id: row.package_id ?? null,
  package_origin: row.package_origin ?? null,
  origin_remote_id: row.origin_remote_id ?? null,
  origin_id: row.origin_id ?? null,
});

/** Where a package scan's timeline goes: compared with the scan stored under `id`, or written as it. */
interface Destination {
  id: string;
  sink: StoredScanComparison | NewScanWriter;
}

/** The store's answers for a whole package, looked up before its scans are read. */
interface Lookups {
  /** Scans the importer can see under a package id. */
  visible: Map<string, ScanRow>;
  /** Scans under the ids derived for the importer. */
  derived: Map<string, ScanRow>;
  /** Taken ids among the violation ids the package's new scans would take. */
  takenViolations: Set<string>;
}

async function lookUp(db: Db, userId: string, scans: readonly PackageScan[]): Promise<Lookups> {
  const visible = await findVisibleScansById(
    db,
    scans.map((scan) => scan.id),
    userId,
  );
  const unseen = scans.filter((scan) => !visible.has(scan.id));
  const derived = await findScansById(
    db,
    unseen.map((scan) => derivedScanId(userId, scan.id)),
  );
  const takenViolations = await findTakenViolationIds(
    db,
    unseen.flatMap((scan) => scan.violations.map((violation) => derivedViolationId(userId, violation.id))),
  );
  return { visible, derived, takenViolations };
}

async function destination(
  db: Db,
  userId: string,
  scan: PackageScan,
  lookups: Lookups,
  hold: HoldBudget,
): Promise<Destination> {
  const { id: packageId, evidenceEntry: entry, violations: packaged } = scan;
  const literal = lookups.visible.get(packageId);
  const target = placedTarget(
    userId,
    packageId,
    entry,
    literal,
    literal ? undefined : lookups.derived.get(derivedScanId(userId, packageId)),
  );
  const violations = target.derived
    ? packaged.map((violation) => ({ ...violation, id: derivedViolationId(userId, violation.id) }))
    : packaged;
  const row = (defaults: ScanDefaults) => scanRow(scan, defaults, violations, userId, target.id);
  if (target.existing) {
    return { id: target.id, sink: await StoredScanComparison.start(db, target.existing, scan, violations, row) };
  }
  refuseTakenIn(lookups.takenViolations, packageId, entry, violations, packaged);
  return { id: target.id, sink: new NewScanWriter(db, target.id, violations, row, hold) };
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
  const hold = new HoldBudget();
  try {
    const lookups = await lookUp(db, userId, scans);
    for (const scan of scans) {
      const check = new ScanCheck(scan, violationIds);
      // After a conflict the package is only checked: nothing more is worth writing.
      const to: Destination | DomainError | null = conflict
        ? null
        : await destination(db, userId, scan, lookups, hold).catch(asConflict);
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
        const visible = await findVisibleScansById(trx, unchanged, userId);
        for (const id of unchanged) if (!visible.has(id)) throw new ImportRaced(`scan ${id} went meanwhile`);
        if (writers.length === 0) return [];
        const stored = await findScansById(
          trx,
          writers.map(({ writer }) => writer.id),
        );
        const taken = await findTakenViolationIds(
          trx,
          writers.flatMap(({ writer }) => writer.violations.map((violation) => violation.id)),
        );
        for (const { scan, writer } of writers) {
          if (stored.has(writer.id)) throw new ImportRaced(`scan ${writer.id} was stored meanwhile`);
          refuseTakenIn(taken, scan.id, scan.evidenceEntry, writer.violations, scan.violations);
        }
        const pyramids = await storeStagedCells(
          db,
          trx,
          writers.map(({ writer }) => ({ scanId: writer.id, writer })),
        );
        // Taken after the checks, before any write a submit could wait for (db/change-sequence.ts).
        const seq = await nextChangeSeq(trx);
        const rows = writers.map(({ writer }) => ({ ...writer.row!, change_seq: seq }));
        await storeNewPackageScans(
          db,
          trx,
          writers.map(({ writer }, i) => ({ row: rows[i]!, violations: writer.violations, writer })),
          pyramids,
        );
        return rows.map(storedRow);
      },
      { isolation: 'read committed' },
    );
    for (const row of written) onStored(row);
  } catch (error) {
    await discardAll(writers.map(({ writer }) => writer.timeline));
    throw error;
  }
  // fromEntries defines each key as data: a package id `__proto__` stays a key like any other.
  return { imported, unchanged, ids: Object.fromEntries(ids) };
}
