import type { ImportResult } from '../../../shared/api/evidence';
import type { ScanStatus, Violation } from '../../../shared/api/scans';
import { worstSeverityRank } from '../../../shared/policy/severity';
import { type Db, type Executor, inTransaction, nextChangeSeq, type ScanDraft, type ScanRow } from '../../db/index';
import { findScan, findVisibleScan, insertImportedScan, insertViolations } from '../../scans/scans.repository';
import { DomainError } from '../../domain-error';
import { derivedViolationId } from './import-ids';
import { importTarget, refuseTakenViolationIds } from './import-target';
import type { PackageScan } from './package-scan';
import { ScanCheck, type ScanDefaults } from './scan-check';
import { adoptStagedTimeline, discardStagedTimelines } from './staged-timelines.repository';
import { NewScanWriter, StoredScanComparison } from './store-sinks';
import type { InflateBudget } from './zip/inflate-guard';

// An import in one pass: each package scan's timeline is read once, checked as it streams and,
// in the same pass, staged (a new scan: staged-timelines.repository.ts, a short transaction per
// step) or compared with the stored one (an id already there). A refusal found anywhere, up to
// the last entry's digest, throws and what was staged is deleted. Only then does one short
// transaction store every new scan (its row, its staged timeline, pyramid and violations): a
// package changes nothing that anyone can see until it is accepted whole. A conflict (409) is
// held until every scan has been checked: a package that is also invalid is answered 400, as
// when checking came first.

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

/** Stores a new scan whose timeline is staged, inside the import's closing transaction. */
async function storeNewScan(
  db: Db,
  trx: Executor,
  scan: PackageScan,
  writer: NewScanWriter,
  changeSeq: number,
): Promise<ScanRow> {
  const row = { ...writer.row!, change_seq: changeSeq };
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
    origin_remote_id: row.origin_remote_id ?? null,
    origin_id: row.origin_id ?? null,
  };
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
        let seq: number | undefined;
        for (const { scan, writer } of writers)
          rows.push(await storeNewScan(db, trx, scan, writer, (seq ??= await nextChangeSeq(trx))));
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
