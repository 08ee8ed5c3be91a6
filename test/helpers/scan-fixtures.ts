import { expect } from 'vitest';
import type { Role } from '../../src/shared/api/common';
import type { Policy } from '../../src/shared/api/policies';
import type { Scan, ScanList, ScanStatus, Severity } from '../../src/shared/api/scans';
import type { Db } from '../../src/main/db/database';
import { nextChangeSeq } from '../../src/main/db/change-sequence';
import type { NewScan, ScanDraft } from '../../src/main/db/tables/scan.table';
import { SEVERITY_RANK } from '../../src/shared/policy/severity';
import type { TestContext, TestUser } from './test-app';

export interface ScanFixture {
  id: string;
  /** Epoch milliseconds. */
  created_at: number;
  submitted_by: string;
  tool?: string;
  action?: string;
  tokens?: number;
  status?: ScanStatus;
  organization_id?: string | null;
  /** Stored as the scan's violation count, with `worst` as the worst severity (default medium). */
  violation_count?: number;
  worst?: Severity;
  /** A pulled scan: the remote (its local id) and the scan's id there. */
  origin?: { remote_id: string | null; id: string };
  /** An imported scan (a pulled one is always `pulled`). */
  imported?: boolean;
}

/** `scan_` + 26 Crockford characters, ordered by `n`: lets a test control the id tiebreak. */
export function fixtureScanId(n: number): string {
  return `scan_${n.toString(32).toUpperCase().padStart(26, '0')}`;
}

/**
 * Inserts scans straight into the store, in one transaction, each with a one-entry timeline at
 * its created_at (no violation rows: only the denormalized counts that lists and stats read).
 * They share one change seq, as one transaction's scans do. Without `timelines`, the timelines are
 * left to the caller, and the scans get no change seq: a store of an older schema has neither.
 */
export async function insertScans(
  db: Db,
  fixtures: readonly ScanFixture[],
  { timelines = true }: { timelines?: boolean } = {},
): Promise<void> {
  const rows: ScanDraft[] = fixtures.map((f) => {
    const violations = f.violation_count ?? 0;
    return {
      id: f.id,
      created_at: f.created_at,
      tool: f.tool ?? 'claude-code',
      action: f.action ?? 'edit',
      tokens: f.tokens ?? 100,
      status: f.status ?? 'completed',
      source: f.origin ? 'pulled' : f.imported ? 'imported' : 'submitted',
      ...(f.origin ? { origin_remote_id: f.origin.remote_id, origin_id: f.origin.id } : {}),
      organization_id: f.organization_id ?? null,
      submitted_by: f.submitted_by,
      token_breakdown: '{}',
      request_count: 1,
      violation_count: violations,
      worst_severity: violations === 0 ? 0 : SEVERITY_RANK[f.worst ?? 'medium'],
    };
  });
  await db.transaction().execute(async (trx) => {
    const changeSeq = timelines ? { change_seq: await nextChangeSeq(trx) } : {};
    for (let start = 0; start < rows.length; start += 400) {
      const chunk = rows.slice(start, start + 400);
      await trx
        .insertInto('scans')
        .values(chunk.map((row) => ({ ...row, ...changeSeq }) as NewScan))
        .execute();
      if (!timelines) continue;
      const stored = await trx
        .insertInto('timelines')
        .values(chunk.map((row) => ({ scan_id: row.id })))
        .returning(['id', 'scan_id'])
        .execute();
      const byScan = new Map(chunk.map((row) => [row.id, row]));
      await trx
        .insertInto('timeline_entries')
        .values(
          stored.map(({ id, scan_id }) => {
            const row = byScan.get(scan_id!)!;
            return { timeline_id: id, seq: 0, timestamp: row.created_at, action: row.action, tokens: row.tokens };
          }),
        )
        .execute();
    }
  });
}

export async function createOrg(ctx: TestContext, name: string, as: TestUser = ctx.owner): Promise<string> {
  const response = await ctx.request({ method: 'POST', url: '/v1/organizations', payload: { name }, as });
  expect(response.statusCode, response.body).toBe(201);
  return (response.json() as { id: string }).id;
}

export async function setRole(ctx: TestContext, orgId: string, user: TestUser, role: Role): Promise<void> {
  const response = await ctx.request({
    method: 'PUT',
    url: `/v1/organizations/${orgId}/members/${user.id}`,
    payload: { role },
  });
  expect(response.statusCode, response.body).toBe(200);
}

export async function putPolicy(ctx: TestContext, orgId: string, policy: Policy): Promise<void> {
  const response = await ctx.request({ method: 'PUT', url: `/v1/organizations/${orgId}/policy`, payload: policy });
  expect(response.statusCode, response.body).toBe(200);
}

export async function submitScan(
  ctx: TestContext,
  body: Record<string, unknown>,
  as: TestUser = ctx.owner,
): Promise<Scan> {
  const response = await ctx.request({ method: 'POST', url: '/v1/scans', payload: body, as });
  expect(response.statusCode, response.body).toBe(201);
  return response.json() as Scan;
}

/** One page of GET /v1/scans (query without the `?`), as `as` (default: the workspace owner). */
export async function listScans(ctx: TestContext, query: string, as: TestUser = ctx.owner): Promise<ScanList> {
  const response = await ctx.request({ method: 'GET', url: `/v1/scans?${query}`, as });
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as ScanList;
}

/** Every matching id, walking pages of `limit`; asserts the same total on every page. */
export async function walkScans(
  ctx: TestContext,
  query: string,
  limit = 500,
): Promise<{ ids: string[]; total: number }> {
  const ids: string[] = [];
  let total: number | undefined;
  for (let offset = 0; ; offset += limit) {
    const body = await listScans(ctx, `${query}${query ? '&' : ''}limit=${limit}&offset=${offset}`);
    total ??= body.total;
    expect(body.total).toBe(total);
    expect(body.scans.length).toBe(Math.max(0, Math.min(limit, total - offset)));
    ids.push(...body.scans.map((s) => s.id));
    if (offset + limit >= total) break;
  }
  return { ids, total };
}

/**
 * Three users, two organizations and "no organization" (null, last): the workspace owner owns
 * both organizations, `admin` administers the first and is a member of the second, and `member`
 * is a member of both, so each user sees a different set of scans.
 */
export async function createRoleWorld(ctx: TestContext): Promise<{ users: TestUser[]; orgs: (string | null)[] }> {
  const admin = await ctx.createUser('admin');
  const member = await ctx.createUser('member');
  const acme = await createOrg(ctx, 'Acme');
  const globex = await createOrg(ctx, 'Globex');
  for (const org of [acme, globex]) await setRole(ctx, org, member, 'member');
  await setRole(ctx, acme, admin, 'admin');
  await setRole(ctx, globex, admin, 'member');
  return { users: [ctx.owner, admin, member], orgs: [acme, globex, null] };
}
