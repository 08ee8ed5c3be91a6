/**
 * The change feed for a caller who administers 1,200 organizations (docs/sync.md#change-feed-and-cursor):
 * the cursor stays short (a digest per position, the keys kept on the server), a page read with it
 * skips nothing, an organization the caller comes to manage is read from its start, a cursor
 * naming a set the server no longer keeps is refused, and one of the older format still reads.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SyncChanges } from '../../../src/shared/api/sync';
import { decodeCursor } from '../../../src/main/sync/changes/change-cursor';
import { expectError } from '../../helpers/assertions';
import { createOrg, setRole, submitScan } from '../../helpers/scan-fixtures';
import { createTestContext, type TestContext, type TestUser } from '../../helpers/test-app';

const ORGS = 1200;

describe('GET /v1/sync/changes with 1,200 managed organizations', () => {
  let ctx: TestContext;
  let admin: TestUser;
  let member: TestUser;
  const orgs: string[] = [];
  /** Every scan the admin can see, with its organization. */
  const expected: string[] = [];
  const orgOf = new Map<string, string>();

  async function page(cursor: string | undefined, limit: number): Promise<SyncChanges> {
    const query = new URLSearchParams({ limit: String(limit), ...(cursor === undefined ? {} : { cursor }) });
    const response = await ctx.request({ method: 'GET', url: `/v1/sync/changes?${query}`, as: admin });
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as SyncChanges;
  }

  async function walk(cursor: string | undefined, limit: number): Promise<{ ids: string[]; cursor: string }> {
    const ids: string[] = [];
    for (;;) {
      const body = await page(cursor, limit);
      ids.push(...body.changes.map((change) => change.id));
      expect(body.cursor.length).toBeLessThan(1024);
      cursor = body.cursor;
      if (!body.more) return { ids, cursor };
    }
  }

  const submit = async (org: string) => {
    const scan = await submitScan(ctx, { tool: 'ok-tool', action: 'edit', tokens: 1, organization_id: org }, member);
    expected.push(scan.id);
    orgOf.set(scan.id, org);
    return scan.id;
  };

  beforeAll(async () => {
    ctx = await createTestContext();
    admin = await ctx.createUser('admin');
    member = await ctx.createUser('member');
    const now = new Date().toISOString();
    for (let n = 0; n < ORGS; n++) orgs.push(`org_many_${String(n).padStart(5, '0')}`);
    for (let start = 0; start < ORGS; start += 200) {
      const slice = orgs.slice(start, start + 200);
      await ctx.db
        .insertInto('organizations')
        .values(slice.map((id) => ({ id, name: id, plan: 'free' as const, created_at: now })))
        .execute();
      await ctx.db
        .insertInto('memberships')
        .values(
          slice.flatMap((id) => [
            { organization_id: id, user_id: admin.id, role: 'admin' as const, joined_at: now },
            { organization_id: id, user_id: member.id, role: 'member' as const, joined_at: now },
          ]),
        )
        .execute();
    }
    for (const n of [0, 1, 599, 600, 1199]) await submit(orgs[n]!);
  });

  afterAll(async () => {
    await ctx?.close();
  });

  it('walks every bucket with a short cursor, and a page with nothing new keeps no new set', async () => {
    const first = await walk(undefined, 2);
    expect(first.ids.sort()).toEqual([...expected].sort());
    const cursor = decodeCursor(first.cursor)!;
    expect(cursor.groups).toHaveLength(1);
    expect(Array.isArray(cursor.groups[0]!.keys)).toBe(false);
    const sets = async () => (await ctx.db.selectFrom('sync_bucket_sets').select('digest').execute()).length;
    const kept = await sets();
    expect(kept).toBe(1);

    const started = performance.now();
    const idle = await page(first.cursor, 500);
    console.log(`a page with nothing new, ${ORGS + 1} buckets: ${(performance.now() - started).toFixed(0)} ms`);
    expect(idle.changes).toEqual([]);
    expect(idle.more).toBe(false);
    expect(await sets()).toBe(kept);

    const later = await submit(orgs[900]!);
    expect((await walk(idle.cursor, 500)).ids).toEqual([later]);
  });

  it('reads an organization the caller comes to manage from its start, the others from their position', async () => {
    const joined = await createOrg(ctx, 'Joined later');
    await setRole(ctx, joined, member, 'member');
    const before = await submit(joined);
    await submit(orgs[7]!);
    const { cursor } = await walk(undefined, 500);
    await setRole(ctx, joined, admin, 'admin');
    const fresh = await submit(orgs[5]!);

    // Page by page: the new organization catches up at a position of its own, then joins the rest.
    const first = await page(cursor, 1);
    expect(first.changes.map((change) => change.id)).toEqual([before]);
    expect(decodeCursor(first.cursor)!.groups).toHaveLength(2);
    const rest = await walk(first.cursor, 1);
    expect(rest.ids).toEqual([fresh]);
    expect(decodeCursor(rest.cursor)!.groups).toHaveLength(1);
  });

  it('refuses a cursor naming a set this server no longer keeps; the client reads from the start', async () => {
    const { cursor } = await walk(undefined, 500);
    await ctx.db.deleteFrom('sync_bucket_sets').execute();
    const response = await ctx.request({
      method: 'GET',
      url: `/v1/sync/changes?cursor=${cursor}`,
      as: admin,
    });
    const error = expectError(response, 400, 'validation_failed');
    expect(error.details[0]!.field).toBe('cursor');
    expect((await walk(undefined, 500)).ids.sort()).toEqual([...expected].sort());
  });

  it('still reads a cursor of the older format, a position per bucket', async () => {
    const sequence = await ctx.db.selectFrom('change_sequence').selectAll().executeTakeFirstOrThrow();
    const last = Number(sequence.last_seq);
    const old = { v: 1, s: sequence.id, u: admin.id, b: [['', last], ...orgs.slice(0, 10).map((id) => [id, last])] };
    const text = Buffer.from(JSON.stringify(old)).toString('base64url');
    // Organizations the old cursor does not name are read from their start.
    const ids = (await walk(text, 500)).ids.sort();
    const named = new Set(orgs.slice(0, 10));
    expect(ids).toEqual(expected.filter((id) => !named.has(orgOf.get(id)!)).sort());
  });
});
