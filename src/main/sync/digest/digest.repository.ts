import { sql } from 'kysely';
import { doubleSum, type Executor, type RemoteRow } from '../../db/index';
import { queued } from '../push/push-queue.repository';
import type { DayRow } from './day-digest';

// The convergence check's reads (docs/sync.md#convergence-check): sums of the day rollups
// (scan_days, kept by triggers) through scan_days_by_organization, never the scans themselves;
// and on the side that syncs, the few of its own submits that the rollups count differently.

/** Day rollup sums per (organization, day): the query both sides filter. */
const daySums = (db: Executor) =>
  db
    .selectFrom('scan_days')
    .select([
      'organization_key',
      'day',
      sql<string>`sum(scans)`.as('scans'),
      doubleSum('tokens').as('tokens'),
      sql<string>`sum(violations)`.as('violations'),
    ])
    .groupBy(['organization_key', 'day']);

const dayRows = (
  rows: { organization_key: string; day: number; scans: unknown; tokens: unknown; violations: unknown }[],
) =>
  rows.map((row): DayRow => ({
    organization: row.organization_key,
    day: Number(row.day),
    scans: Number(row.scans),
    tokens: Number(row.tokens),
    violations: Number(row.violations),
  }));

/**
 * What `userId` sees of each organization they are a member of, per day: their own scans, and
 * for one they own or administer everyone's (docs/contract/auth.md#visibility). Only `only` when given.
 */
export async function visibleDayRows(db: Executor, userId: string, only?: string): Promise<DayRow[]> {
  let memberships = db.selectFrom('memberships').select(['organization_id', 'role']).where('user_id', '=', userId);
  if (only !== undefined) memberships = memberships.where('organization_id', '=', only);
  const member = await memberships.execute();
  if (member.length === 0) return [];
  const managed = member.filter((row) => row.role !== 'member').map((row) => row.organization_id);
  const own = member.filter((row) => row.role === 'member').map((row) => row.organization_id);
  const rows = await daySums(db)
    .where((eb) =>
      eb.or([
        ...(managed.length > 0 ? [eb('organization_key', 'in', managed)] : []),
        ...(own.length > 0 ? [eb.and([eb('organization_key', 'in', own), eb('submitted_by', '=', userId)])] : []),
      ]),
    )
    .execute();
  return dayRows(rows);
}

/** The local mirrors of `remote`'s organizations: local id → id there. */
export async function mirrorIds(db: Executor, remoteId: string): Promise<Map<string, string>> {
  const rows = await db
    .selectFrom('organizations')
    .select(['id', 'remote_org_id'])
    .where('remote_id', '=', remoteId)
    .execute();
  return new Map(rows.flatMap((row) => (row.remote_org_id === null ? [] : [[row.id, row.remote_org_id] as const])));
}

/** What the remote's local user holds of each mirrored organization, per day (pulled and submitted here). */
export async function mirroredDayRows(db: Executor, remote: RemoteRow, mirrors: readonly string[]): Promise<DayRow[]> {
  if (mirrors.length === 0) return [];
  const rows = await daySums(db)
    .where('organization_key', 'in', mirrors)
    .where('submitted_by', '=', remote.user_id)
    .execute();
  return dayRows(rows);
}

export interface OwnSubmit {
  organization_id: string;
  created_at: number;
  tokens: number;
  violations: number;
  /** Acknowledged by the remote; its verdict there (null: not heard). */
  pushed: boolean;
  remote_violations: number | null;
}

/**
 * The local user's submits in mirrored organizations, as the remote counts them differently: one
 * acknowledged there carries the remote's verdict (its violations), one not yet there is not there
 * at all. Walks the push log, and the push queue's index only when something waits.
 */
export async function ownSubmits(
  db: Executor,
  remote: RemoteRow,
  mirrors: readonly string[],
  waiting: boolean,
): Promise<OwnSubmit[]> {
  if (mirrors.length === 0) return [];
  const pushed = await db
    .selectFrom('sync_pushes')
    .innerJoin('scans', 'scans.id', 'sync_pushes.scan_id')
    .select([
      'scans.organization_id',
      'scans.created_at',
      'scans.tokens',
      'scans.violation_count',
      'sync_pushes.remote_violation_count',
    ])
    .where('sync_pushes.remote_id', '=', remote.id)
    .where('sync_pushes.remote_scan_id', 'is not', null)
    .where('scans.organization_id', 'in', mirrors)
    .execute();
  const rows = pushed.map((row): OwnSubmit => ({
    organization_id: row.organization_id!,
    pushed: true,
    created_at: Number(row.created_at),
    tokens: Number(row.tokens),
    violations: Number(row.violation_count),
    remote_violations: row.remote_violation_count === null ? null : Number(row.remote_violation_count),
  }));
  if (!waiting) return rows;
  const unpushed = await queued(db, remote)
    .select(['scans.organization_id', 'scans.created_at', 'scans.tokens', 'scans.violation_count'])
    .where('scans.organization_id', 'in', mirrors)
    .execute();
  for (const row of unpushed) {
    rows.push({
      organization_id: row.organization_id!,
      pushed: false,
      created_at: Number(row.created_at),
      tokens: Number(row.tokens),
      violations: Number(row.violation_count),
      remote_violations: null,
    });
  }
  return rows;
}
