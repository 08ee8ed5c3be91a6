import type { Executor } from '../db/database';
import type { ScanRow } from '../db/tables/scan.table';
import type { NewViolation } from '../db/tables/violation.table';
import { insertViolations } from '../scans/scans.repository';
import type { FindingKey } from './policy-impact';

// The reads and writes of previewing and re-evaluating a policy over an organization's stored scans.

export interface ImpactRange {
  organizationId: string;
  /** Epoch ms, inclusive. */
  since: number;
  /** Epoch ms, exclusive. */
  until: number;
}

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
  after: ScanRow | undefined,
  limit: number,
): Promise<ScanRow[]> {
  let query = inRange(db, range).where('source', '=', 'submitted');
  if (after) {
    query = query.where((eb) =>
      eb.or([
        eb('created_at', '>', after.created_at),
        eb.and([eb('created_at', '=', after.created_at), eb('id', '>', after.id)]),
      ]),
    );
  }
  return query.selectAll().orderBy('created_at').orderBy('id').limit(limit).execute();
}

/** Each scan's timeline (action and tokens, in order), for scans whose policy reads it. */
export async function timelinesOf(
  db: Executor,
  scanIds: readonly string[],
): Promise<Map<string, { action: string; tokens: number }[]>> {
  const timelines = new Map<string, { action: string; tokens: number }[]>(scanIds.map((id) => [id, []]));
  if (scanIds.length === 0) return timelines;
  const rows = await db
    .selectFrom('timelines')
    .innerJoin('timeline_entries', 'timeline_entries.timeline_id', 'timelines.id')
    .select(['timelines.scan_id', 'timeline_entries.action', 'timeline_entries.tokens'])
    .where('timelines.scan_id', 'in', scanIds)
    .orderBy('timeline_entries.timeline_id')
    .orderBy('timeline_entries.seq')
    .execute();
  for (const row of rows) timelines.get(row.scan_id)!.push({ action: row.action, tokens: Number(row.tokens) });
  return timelines;
}

/** Each scan's stored violations, as far as comparing evaluations goes. */
export async function storedFindings(db: Executor, scanIds: readonly string[]): Promise<Map<string, FindingKey[]>> {
  const findings = new Map<string, FindingKey[]>(scanIds.map((id) => [id, []]));
  if (scanIds.length === 0) return findings;
  const rows = await db
    .selectFrom('violations')
    .select(['scan_id', 'rule', 'severity', 'message', 'timeline_index'])
    .where('scan_id', 'in', scanIds)
    .orderBy('scan_id')
    .orderBy('seq')
    .execute();
  for (const { scan_id, ...finding } of rows) findings.get(scan_id)!.push(finding as FindingKey);
  return findings;
}

/** Replaces a scan's violations and the counts denormalized from them; the rollup triggers follow. */
export async function replaceViolations(
  db: Executor,
  scanId: string,
  violations: readonly NewViolation[],
  worstSeverity: number,
): Promise<void> {
  await db.deleteFrom('violations').where('scan_id', '=', scanId).execute();
  await insertViolations(db, violations);
  await db
    .updateTable('scans')
    .set({ violation_count: violations.length, worst_severity: worstSeverity })
    .where('id', '=', scanId)
    .execute();
}
