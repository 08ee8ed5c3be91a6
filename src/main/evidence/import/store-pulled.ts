import { setImmediate } from 'node:timers/promises';
import type { Violation } from '../../../shared/api/scans';
import { worstSeverityRank } from '../../../shared/policy/severity';
import {
  type Db,
  type Executor,
  inTransaction,
  nextChangeSeq,
  type ScanDraft,
  type ScanRow,
  type SyncPushRow,
} from '../../db/index';
import { DomainError } from '../../domain-error';
import { pulledScanId, pulledViolationId } from './import-ids';
import { HoldBudget } from './held-entries';
import { storeNewPackageScans, storeStagedCells, storeTimelines } from './held-timelines';
import { refuseTakenIn, refuseTakenViolationIds } from './import-target';
import {
  findAcknowledgedPushes,
  findPulledScansByOrigin,
  findScansById,
  findTakenViolationIds,
} from './package-lookups.repository';
import type { PackageScan } from './package-scan';
import { pulledOutcome, type PulledOutcome } from './pulled-outcome';
import { detachTimeline, deleteViolationsOf, recordRemoteVerdict, rewritePulledScan } from './pulled-scans.repository';
import { ScanCheck, type ScanDefaults } from './scan-check';
import { discardAll } from './staged-timeline-writer';
import { discardStagedTimelines } from './staged-timelines.repository';
import { ImportRaced, scanRow } from './store-package';
import { NewScanWriter, StoredScanComparison } from './store-sinks';
import type { InflateBudget } from './zip/inflate-guard';

// A pulled package in one pass, as store-package.ts does an import: the store's answers for the
// whole package looked up first, then each timeline read once, checked and, in the same pass,
// held or staged (a new scan) or compared with the scan pulled before. A stored scan that
// differs in more than its violations is read a second time, to hold or stage its new timeline.
// Then one transaction writes everything (the new scans rows of a kind at once), runs the
// caller's `closing` (the sync's cursor) and commits; a refusal anywhere before leaves the store
// as it was.

/** Scans placed between two turns of the event loop. */
const PLACED_PER_TURN = 100;

/** Where a pull stores a remote's scans (docs/contract/api.md#pulled-scans). */
export interface PulledPlacement {
  remoteId: string;
  /** The local user the remote fills: pulled scans are theirs. */
  userId: string;
  /** The remote's organization ids → their local mirrors'. A scan in any other is stored in none. */
  organizations: ReadonlyMap<string, string>;
}

/** Local scan ids by outcome; `echoed` names our own pushed scans that came back. */
export interface PulledImportResult {
  new: string[];
  changed: string[];
  unchanged: string[];
  echoed: string[];
}

/** A package scan as it will be stored: where, with which violations, and what becomes of it. */
interface Placed {
  scan: PackageScan;
  id: string;
  outcome: PulledOutcome;
  violations: Violation[];
  row: ScanDraft;
  /** A new or replaced scan's staged timeline. */
  writer?: NewScanWriter;
  /** An echo: our own scan that the remote holds as this one. */
  pushed?: string;
}

function pulledRow(
  placement: PulledPlacement,
  scan: PackageScan,
  defaults: ScanDefaults,
  violations: readonly Violation[],
  id: string,
): ScanDraft {
  const remoteOrganization = scan.scan?.organization_id ?? null;
  return {
    ...scanRow(scan, defaults, violations, placement.userId, id),
    source: 'pulled',
    organization_id: remoteOrganization === null ? null : (placement.organizations.get(remoteOrganization) ?? null),
    package_id: null,
    package_origin: null,
    origin_remote_id: placement.remoteId,
    origin_id: scan.id,
  };
}

/** The store's answers for a whole package, looked up before its scans are read. */
interface Lookups {
  /** Our pushes the remote acknowledged, by its id for them. */
  pushes: Map<string, SyncPushRow>;
  /** Scans pulled from the remote before, by their id there. */
  pulled: Map<string, ScanRow>;
}

/** A package scan with the ids it and its violations are stored under here, derived once. */
interface Local {
  scan: PackageScan;
  id: string;
  violations: Violation[];
}

function localOf(remoteId: string, scan: PackageScan): Local {
  return {
    scan,
    id: pulledScanId(remoteId, scan.id),
    violations: scan.violations.map((violation) => ({ ...violation, id: pulledViolationId(remoteId, violation.id) })),
  };
}

async function lookUp(db: Db, remoteId: string, locals: readonly Local[]): Promise<Lookups> {
  const remoteIds = locals.map(({ scan }) => scan.id);
  const pushes = await findAcknowledgedPushes(db, remoteId, remoteIds);
  const pulled = await findPulledScansByOrigin(
    db,
    remoteId,
    remoteIds.filter((id) => !pushes.has(id)),
  );
  // The ids new scans would take are checked once, by the closing transaction (findAgain).
  return { pushes, pulled };
}

/** Reads, checks and places one package scan; holds or stages its timeline when it is new. */
async function place(
  db: Db,
  placement: PulledPlacement,
  { scan, id, violations }: Local,
  violationIds: Set<string>,
  budget: InflateBudget,
  lookups: Lookups,
  hold: HoldBudget,
): Promise<Placed> {
  // Made once: every caller has the same defaults, taken from the one check.
  let made: ScanDraft | undefined;
  const row = (defaults: ScanDefaults) => (made ??= pulledRow(placement, scan, defaults, violations, id));
  const push = lookups.pushes.get(scan.id);
  const echo = push !== undefined;
  const stored = echo ? undefined : lookups.pulled.get(scan.id);
  const sink = echo
    ? null
    : stored
      ? await StoredScanComparison.start(db, stored, scan, violations, row, { violationsApart: true })
      : new NewScanWriter(db, id, violations, row, hold);
  const check = new ScanCheck(scan, violationIds);
  let defaults: ScanDefaults | undefined;
  try {
    for await (const chunk of scan.timeline.read(budget)) {
      check.take(chunk);
      if (sink) await sink.take(chunk, (defaults ??= check.defaults()));
    }
    check.finish();
    defaults ??= check.defaults();
    await sink?.end(defaults);
  } catch (error) {
    if (sink instanceof NewScanWriter) await sink.timeline.discard();
    throw error;
  }
  const newRow = row(defaults);
  const outcome = pulledOutcome({
    echo,
    stored: stored !== undefined,
    differs: sink instanceof StoredScanComparison && sink.why !== null,
    violationsDiffer: sink instanceof StoredScanComparison && sink.violationsDiffer,
    organizationDiffers: stored !== undefined && stored.organization_id !== newRow.organization_id,
  });
  const placed: Placed = { scan, id, outcome, violations, row: newRow };
  if (sink instanceof NewScanWriter) placed.writer = sink;
  if (push) placed.pushed = push.scan_id;
  return placed;
}

const conflict = (scan: PackageScan, why: string): DomainError =>
  new DomainError('conflict', `scan ${scan.id} cannot be stored: ${why}`, [
    { field: 'scan_id', entry: scan.evidenceEntry, message: `${scan.id}: ${why}` },
  ]);

/** Stages a replaced scan's timeline: a second read, checked already by the first. */
async function stageAgain(db: Db, placed: Placed, budget: InflateBudget, hold: HoldBudget): Promise<void> {
  const writer = new NewScanWriter(db, placed.id, placed.violations, () => placed.row, hold);
  placed.writer = writer;
  const defaults: ScanDefaults = { createdAt: placed.row.created_at, action: placed.row.action };
  for await (const chunk of placed.scan.timeline.read(budget)) await writer.take(chunk, defaults);
  await writer.end(defaults);
}

/** What the closing transaction finds of the package's scans, looked up at once. */
interface Found {
  pulled: Map<string, ScanRow>;
  scans: Map<string, ScanRow>;
  takenViolations: Set<string>;
}

async function findAgain(trx: Executor, placement: PulledPlacement, placed: readonly Placed[]): Promise<Found> {
  const fresh = placed.filter((one) => one.outcome === 'new');
  const before = placed.filter((one) => one.outcome !== 'new' && one.outcome !== 'echoed');
  return {
    pulled: await findPulledScansByOrigin(
      trx,
      placement.remoteId,
      before.map((one) => one.scan.id),
    ),
    scans: await findScansById(
      trx,
      fresh.map((one) => one.id),
    ),
    takenViolations: await findTakenViolationIds(
      trx,
      fresh.flatMap((one) => one.violations.map((violation) => violation.id)),
    ),
  };
}

/**
 * Writes one placed scan inside the closing transaction, a scan it changes under change seq
 * `seq` (docs/contract/api.md#sync); a new one is only checked and left to storeNewPackageScans.
 * A detached timeline's id, to delete after it.
 */
async function write(
  db: Db,
  trx: Executor,
  placement: PulledPlacement,
  placed: Placed,
  seq: number,
  found: Found,
): Promise<number | undefined> {
  const { scan, id, violations } = placed;
  const row = { ...placed.row, change_seq: seq };
  const counts = {
    violation_count: violations.length,
    worst_severity: worstSeverityRank(violations.map((v) => v.severity)),
  };
  switch (placed.outcome) {
    case 'echoed': {
      const verdict = { violationCount: counts.violation_count, worstSeverity: counts.worst_severity };
      if (!(await recordRemoteVerdict(trx, placement.remoteId, scan.id, verdict))) {
        throw new ImportRaced(`the push acknowledged as ${scan.id} went meanwhile`);
      }
      return undefined;
    }
    case 'unchanged':
      if (!found.pulled.has(scan.id)) throw new ImportRaced(`scan ${id} went meanwhile`);
      return undefined;
    case 'new': {
      const taken = found.scans.get(id);
      if (taken) {
        // The same scan pulled meanwhile: read again, it is found by its origin.
        if (taken.origin_remote_id === placement.remoteId && taken.origin_id === scan.id) {
          throw new ImportRaced(`scan ${id} was stored meanwhile`);
        }
        // Only a scan pulled from this remote holds an id derived in the pull's domain from it.
        throw conflict(scan, 'the id it would be stored under is in use');
      }
      refuseTakenIn(found.takenViolations, scan.id, scan.evidenceEntry, violations, scan.violations);
      return undefined;
    }
    case 'violations':
    case 'replaced': {
      if (!found.pulled.has(scan.id)) throw new ImportRaced(`scan ${id} went meanwhile`);
      // The old violations go first: a new one may take the id an old one had.
      await deleteViolationsOf(trx, id);
      await refuseTakenViolationIds(trx, scan.id, scan.evidenceEntry, violations, scan.violations);
      if (placed.outcome === 'violations') {
        await rewritePulledScan(trx, id, violations, {
          ...counts,
          organization_id: row.organization_id ?? null,
          change_seq: seq,
        });
        return undefined;
      }
      const detached = await detachTimeline(trx, id);
      const { id: _id, ...fields } = row;
      await rewritePulledScan(trx, id, violations, fields);
      await storeTimelines(db, trx, [{ scanId: id, writer: placed.writer! }]);
      return detached;
    }
  }
}

/**
 * Checks and stores a pulled package's scans as `placement` says, all or nothing; `closing` runs
 * last inside the one transaction that writes them. `onStored`, when given, hears of each new
 * scan once committed. Throws ImportRaced when the package must be read again.
 */
export async function storePulledScans(
  db: Db,
  placement: PulledPlacement,
  scans: readonly PackageScan[],
  budget: InflateBudget,
  closing: (trx: Executor) => Promise<void>,
  onStored?: (row: ScanRow) => void,
): Promise<PulledImportResult> {
  const placed: Placed[] = [];
  const violationIds = new Set<string>();
  const hold = new HoldBudget();
  let seq: number | undefined;
  try {
    const locals = scans.map((scan) => localOf(placement.remoteId, scan));
    const lookups = await lookUp(db, placement.remoteId, locals);
    for (const [index, local] of locals.entries()) {
      // A page's placing is otherwise one run of microtasks: the event loop would read neither the
      // remote's next answer (which then waits behind a full socket) nor anyone's request.
      if (index % PLACED_PER_TURN === PLACED_PER_TURN - 1) await setImmediate();
      placed.push(await place(db, placement, local, violationIds, budget, lookups, hold));
    }
    for (const one of placed) if (one.outcome === 'replaced') await stageAgain(db, one, budget, hold);
    const written = await inTransaction(
      db,
      async (trx) => {
        const timelines: number[] = [];
        const fresh = placed.filter((one) => one.outcome === 'new');
        const pyramids = await storeStagedCells(
          db,
          trx,
          fresh.map((one) => ({ scanId: one.row.id, writer: one.writer! })),
        );
        // Taken before any write a submit could wait for (db/change-sequence.ts), and only when a scan is written.
        const writes = placed.some((one) => one.outcome !== 'unchanged' && one.outcome !== 'echoed');
        const seq = writes ? await nextChangeSeq(trx) : 0;
        const found = await findAgain(trx, placement, placed);
        for (const one of placed) {
          const id = await write(db, trx, placement, one, seq, found);
          if (id !== undefined) timelines.push(id);
        }
        await storeNewPackageScans(
          db,
          trx,
          fresh.map((one) => ({
            row: { ...one.row, change_seq: seq },
            violations: one.violations,
            writer: one.writer!,
          })),
          pyramids,
        );
        await closing(trx);
        return { timelines, seq };
      },
      { isolation: 'read committed' },
    );
    seq = written.seq;
    await discardStagedTimelines(db, written.timelines);
  } catch (error) {
    await discardAll(placed.flatMap((one) => (one.writer ? [one.writer.timeline] : [])));
    throw error;
  }
  if (onStored) for (const one of placed) if (one.outcome === 'new') onStored(toStoredRow(one.row, seq!));
  const result: PulledImportResult = { new: [], changed: [], unchanged: [], echoed: [] };
  for (const { outcome, id, pushed } of placed) {
    if (outcome === 'echoed') result.echoed.push(pushed!);
    else if (outcome === 'violations' || outcome === 'replaced') result.changed.push(id);
    else result[outcome].push(id);
  }
  return result;
}

const toStoredRow = (row: ScanDraft, seq: number): ScanRow => ({
  ...row,
  change_seq: seq,
  organization_id: row.organization_id ?? null,
  package_id: null,
  package_origin: null,
  origin_remote_id: row.origin_remote_id ?? null,
  origin_id: row.origin_id ?? null,
});
