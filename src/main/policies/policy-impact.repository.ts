import {
  BulkInserter,
  rowSample,
  type Db,
  type Executor,
  type NewPolicyStagedViolation,
  type ScanRow,
} from '../db/index';
import type { FindingKey, RowStep } from './policy-impact';

// The reads and writes of previewing and re-evaluating a policy over an organization's stored
// scans. Every read is bounded by construction (a page of scans, or a planned step of rows), so
// that no single synchronous SQLite call can hold the event loop for long.

export interface ImpactRange {
  organizationId: string;
  /** Epoch ms, inclusive. */
  since: number;
  /** Epoch ms, exclusive. */
  until: number;
}

/** What evaluating and comparing needs of a scan. */
export type ImpactScan = Pick<ScanRow, 'id' | 'created_at' | 'tool' | 'tokens' | 'request_count' | 'violation_count'>;

const inRange = (db: Executor, range: ImpactRange) =>
  db
    .selectFrom('scans')
    .where('organization_id', '=', range.organizationId)
    .where('created_at', '>=', range.since)
    .where('created_at', '<', range.until);

/** Submitted and imported scans of the range. */
export async function countRange(db: Executor, range: ImpactRange): Promise<{ submitted: number; imported: number }> {
  const rows = await inRange(db, range)
    .select((eb) => ['source', eb.fn.countAll<number>().as('n')])
    .groupBy('source')
    .execute();
  const of = (source: string) => Number(rows.find((row) => row.source === source)?.n ?? 0);
  return { submitted: of('submitted'), imported: of('imported') };
}

/** A page of the range's submitted scans in (created_at, id) order, after `after`. */
export async function submittedPage(
  db: Executor,
  range: ImpactRange,
  after: ImpactScan | undefined,
  limit: number,
): Promise<ImpactScan[]> {
  let query = inRange(db, range).where('source', '=', 'submitted');
  if (after) {
    query = query.where((eb) =>
      eb.or([
        eb('created_at', '>', after.created_at),
        eb.and([eb('created_at', '=', after.created_at), eb('id', '>', after.id)]),
      ]),
    );
  }
  const rows = await query
    .select(['id', 'created_at', 'tool', 'tokens', 'request_count', 'violation_count'])
    .orderBy('created_at')
    .orderBy('id')
    .limit(limit)
    .execute();
  return rows.map((row) => ({ ...row, tokens: Number(row.tokens), created_at: Number(row.created_at) }));
}

/** The timeline id of each of the scans that has one. */
export async function timelineIds(db: Executor, scanIds: readonly string[]): Promise<Map<string, number>> {
  if (scanIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('timelines')
    .select(['id', 'scan_id'])
    .where('scan_id', 'in', scanIds)
    // Staged timelines (scan_id null) never match a scan id.
    .$narrowType<{ scan_id: string }>()
    .execute();
  return new Map(rows.map((row) => [row.scan_id, Number(row.id)]));
}

export interface EntryRow {
  timeline_id: number;
  seq: number;
  action: string;
  tokens: number;
}

/** The timeline entries of one planned step, in (timeline, seq) order. */
export async function entriesOf(db: Executor, step: RowStep<number>): Promise<EntryRow[]> {
  let query = db.selectFrom('timeline_entries').select(['timeline_id', 'seq', 'action', 'tokens']);
  query =
    step.kind === 'items'
      ? query.where('timeline_id', 'in', step.keys)
      : query.where('timeline_id', '=', step.key).where('seq', '>=', step.from).where('seq', '<', step.to);
  const rows = await query.orderBy('timeline_id').orderBy('seq').execute();
  return rows.map((row) => ({ ...row, timeline_id: Number(row.timeline_id), tokens: Number(row.tokens) }));
}

/** The stored violations of one planned step, in (scan, seq) order, as far as comparing goes. */
export async function violationsOf(db: Executor, step: RowStep<string>): Promise<(FindingKey & { scan_id: string })[]> {
  let query = db.selectFrom('violations').select(['scan_id', 'rule', 'severity', 'message', 'timeline_index']);
  query =
    step.kind === 'items'
      ? query.where('scan_id', 'in', step.keys)
      : query.where('scan_id', '=', step.key).where('seq', '>=', step.from).where('seq', '<', step.to);
  const rows = await query.orderBy('scan_id').orderBy('seq').execute();
  return rows as (FindingKey & { scan_id: string })[];
}

const STAGED_SAMPLE = rowSample('policy_staged_violations', [
  'run_id',
  'scan_id',
  'seq',
  'id',
  'rule',
  'severity',
  'message',
  'timeline_index',
]);

/** Stages violations of a re-evaluation (not yet visible to anyone), inside the caller's transaction `trx` on `db`. */
export async function stageViolations(db: Db, trx: Executor, rows: readonly NewPolicyStagedViolation[]): Promise<void> {
  const staged = new BulkInserter(db, trx, 'policy_staged_violations', STAGED_SAMPLE, 100);
  for (const row of rows) {
    const written = staged.push(
      row.run_id,
      row.scan_id,
      row.seq,
      row.id,
      row.rule,
      row.severity,
      row.message,
      row.timeline_index ?? null,
    );
    if (written) await written;
  }
  await staged.flush();
}

/** Stages the scans whose violations a re-evaluation replaces, with their new counts. */
export async function stageScans(
  db: Executor,
  runId: string,
  scans: readonly { scanId: string; violationCount: number; worstSeverity: number }[],
): Promise<void> {
  if (scans.length === 0) return;
  await db
    .insertInto('policy_staged_scans')
    .values(
      scans.map((scan) => ({
        run_id: runId,
        scan_id: scan.scanId,
        violation_count: scan.violationCount,
        worst_severity: scan.worstSeverity,
      })),
    )
    .execute();
}

export interface StagedScan {
  scanId: string;
  /** Violations it has now, and will have once swapped. */
  storedCount: number;
  stagedCount: number;
}

/**
 * A page of the scans a run staged that are still stored, in id order after `after`, with their
 * violation counts now and once swapped in.
 */
export async function stagedScansPage(
  db: Executor,
  runId: string,
  after: string | undefined,
  limit: number,
): Promise<StagedScan[]> {
  let query = db
    .selectFrom('policy_staged_scans as s')
    .innerJoin('scans', 'scans.id', 's.scan_id')
    .select(['s.scan_id', 's.violation_count as staged', 'scans.violation_count as stored'])
    .where('s.run_id', '=', runId);
  if (after !== undefined) query = query.where('s.scan_id', '>', after);
  const rows = await query.orderBy('s.scan_id').limit(limit).execute();
  return rows.map((row) => ({ scanId: row.scan_id, storedCount: Number(row.stored), stagedCount: Number(row.staged) }));
}

/** Deletes the stored violations of one planned step (whole scans, or a seq slice of one). */
export async function deleteViolationsStep(db: Executor, step: RowStep<string>): Promise<void> {
  let query = db.deleteFrom('violations');
  query =
    step.kind === 'items'
      ? query.where('scan_id', 'in', step.keys)
      : query.where('scan_id', '=', step.key).where('seq', '>=', step.from).where('seq', '<', step.to);
  await query.execute();
}

/** Stores a run's staged violations of one planned step; the rollups follow by trigger. */
export async function insertStagedStep(db: Executor, runId: string, step: RowStep<string>): Promise<void> {
  let rows = db
    .selectFrom('policy_staged_violations')
    .select(['id', 'scan_id', 'seq', 'rule', 'severity', 'message', 'timeline_index'])
    .where('run_id', '=', runId);
  rows =
    step.kind === 'items'
      ? rows.where('scan_id', 'in', step.keys)
      : rows.where('scan_id', '=', step.key).where('seq', '>=', step.from).where('seq', '<', step.to);
  await db
    .insertInto('violations')
    .columns(['id', 'scan_id', 'seq', 'rule', 'severity', 'message', 'timeline_index'])
    .expression(rows.orderBy('scan_id').orderBy('seq'))
    .execute();
}

/** Gives staged scans the counts of their staged violations, and `changeSeq`: the feed sends them again. */
export async function applyStagedCounts(
  db: Executor,
  runId: string,
  scanIds: readonly string[],
  changeSeq: number,
): Promise<void> {
  if (scanIds.length === 0) return;
  await db
    .updateTable('scans')
    .set((eb) => {
      const staged = eb
        .selectFrom('policy_staged_scans as s')
        .where('s.run_id', '=', runId)
        .whereRef('s.scan_id', '=', 'scans.id');
      return {
        violation_count: staged.select('s.violation_count'),
        worst_severity: staged.select('s.worst_severity'),
        change_seq: changeSeq,
      };
    })
    .where('id', 'in', scanIds)
    .execute();
}

/**
 * Removes up to `limit` of a run's staged violations (in key order) and, once none are left, its
 * staged scans; whether anything of the run is left.
 */
export async function dropStagedStep(db: Executor, runId: string, limit: number): Promise<boolean> {
  const last = await db
    .selectFrom('policy_staged_violations')
    .select(['scan_id', 'seq'])
    .where('run_id', '=', runId)
    .orderBy('scan_id')
    .orderBy('seq')
    .offset(limit - 1)
    .limit(1)
    .executeTakeFirst();
  let query = db.deleteFrom('policy_staged_violations').where('run_id', '=', runId);
  if (last) {
    query = query.where((eb) =>
      eb.or([eb('scan_id', '<', last.scan_id), eb.and([eb('scan_id', '=', last.scan_id), eb('seq', '<=', last.seq)])]),
    );
  }
  await query.execute();
  if (last) return true;
  await db.deleteFrom('policy_staged_scans').where('run_id', '=', runId).execute();
  return false;
}
