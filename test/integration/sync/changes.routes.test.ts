/**
 * The change feed over HTTP (docs/contract/api.md#sync), on the run's backend: it holds exactly the
 * scans the caller can see, a page at a time, a scan again once re-evaluated, an organization that
 * becomes visible from its start; cursors of another store, user or time are refused.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SyncChanges } from '../../../src/shared/api/sync';
import { encodeCursor, OWN_BUCKET } from '../../../src/main/sync/changes/change-cursor';
import { expectError } from '../../helpers/assertions';
import { createOrg, putPolicy, setRole, submitScan } from '../../helpers/scan-fixtures';
import { createTestContext, type TestContext, type TestUser } from '../../helpers/test-app';
import { onPostgres } from '../../helpers/test-database';

const DAY_MS = 86_400_000;

describe('GET /v1/sync/changes', () => {
  let ctx: TestContext;
  let admin: TestUser;
  let member: TestUser;
  let orgA: string;
  let orgB: string;
  /** Who submitted each scan, and where. */
  const scans: { id: string; by: TestUser; org: string | null; tool: string }[] = [];

  async function submit(by: TestUser, org: string | null, tool: string): Promise<string> {
    const scan = await submitScan(
      ctx,
      { tool, action: 'edit', tokens: 10, ...(org === null ? {} : { organization_id: org }) },
      by,
    );
    scans.push({ id: scan.id, by, org, tool });
    return scan.id;
  }

  async function page(as: TestUser, query: string): Promise<SyncChanges> {
    const response = await ctx.request({ method: 'GET', url: `/v1/sync/changes?${query}`, as });
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as SyncChanges;
  }

  /** Reads the feed from `cursor` (the start without one) to its end, `limit` at a time. */
  async function walk(
    as: TestUser,
    cursor?: string,
    limit = 500,
  ): Promise<{ ids: string[]; cursor: string; pages: number }> {
    const ids: string[] = [];
    let pages = 0;
    for (;;) {
      const query = new URLSearchParams({ limit: String(limit), ...(cursor === undefined ? {} : { cursor }) });
      const body = await page(as, query.toString());
      pages += 1;
      expect(body.changes.length).toBeLessThanOrEqual(limit);
      // Each page in (change_seq, id) order.
      const order = body.changes.map((change) => [change.change_seq, change.id] as const);
      expect([...order].sort(([a, x], [b, y]) => a - b || (x < y ? -1 : x > y ? 1 : 0))).toEqual(order);
      ids.push(...body.changes.map((change) => change.id));
      cursor = body.cursor;
      if (!body.more) return { ids, cursor, pages };
      expect(body.changes.length).toBe(limit);
    }
  }

  /** What GET /v1/scans lists for `as`: the visibility rule, as the rest of the API applies it. */
  async function visible(as: TestUser): Promise<string[]> {
    const response = await ctx.request({ method: 'GET', url: '/v1/scans?limit=500', as });
    return (response.json() as { scans: { id: string }[] }).scans.map((scan) => scan.id).sort();
  }

  beforeAll(async () => {
    ctx = await createTestContext();
    admin = await ctx.createUser('admin');
    member = await ctx.createUser('member');
    orgA = await createOrg(ctx, 'Alpha');
    orgB = await createOrg(ctx, 'Beta');
    await setRole(ctx, orgA, admin, 'admin');
    await setRole(ctx, orgA, member, 'member');
    await setRole(ctx, orgB, member, 'member');
    await setRole(ctx, orgB, admin, 'member');
    for (let n = 0; n < 3; n++) await submit(member, orgA, n === 0 ? 'blocked-tool' : 'ok-tool');
    await submit(member, null, 'ok-tool');
    await submit(member, orgB, 'ok-tool');
    for (let n = 0; n < 2; n++) await submit(admin, orgA, 'ok-tool');
    await submit(admin, orgB, 'ok-tool');
    await submit(ctx.owner, orgA, 'blocked-tool');
    await submit(ctx.owner, orgB, 'ok-tool');
  });

  afterAll(async () => {
    await ctx.close();
  });

  it("gives a member their own scans only, and an admin their own and the organization's, each once", async () => {
    const ofMember = await walk(member);
    expect([...ofMember.ids].sort()).toEqual(
      scans
        .filter((scan) => scan.by === member)
        .map((scan) => scan.id)
        .sort(),
    );
    expect([...ofMember.ids].sort()).toEqual(await visible(member));

    const ofAdmin = await walk(admin);
    expect(new Set(ofAdmin.ids).size).toBe(ofAdmin.ids.length);
    expect([...ofAdmin.ids].sort()).toEqual(
      scans
        .filter((scan) => scan.by === admin || scan.org === orgA)
        .map((scan) => scan.id)
        .sort(),
    );
    expect([...ofAdmin.ids].sort()).toEqual(await visible(admin));
    expect((await page(admin, 'limit=1')).total).toBe(ofAdmin.ids.length);
  });

  it('pages by `limit` without repeating or skipping a scan, and ends with `more` false', async () => {
    const all = await walk(ctx.owner);
    const byTwo = await walk(ctx.owner, undefined, 2);
    expect(byTwo.ids).toEqual(all.ids);
    expect(byTwo.pages).toBe(Math.max(1, Math.ceil(all.ids.length / 2)));
    const after = await page(ctx.owner, `cursor=${byTwo.cursor}`);
    expect(after).toMatchObject({ changes: [], more: false });
  });

  it('sends a scan again once its violations are re-evaluated, and only the scans that changed', async () => {
    const { cursor } = await walk(admin);
    await putPolicy(ctx, orgA, {
      max_tokens_per_scan: null,
      max_tokens_per_request: null,
      allowed_tools: null,
      blocked_tools: ['blocked-tool'],
      blocked_actions: [],
    });
    const response = await ctx.request({
      method: 'POST',
      url: `/v1/organizations/${orgA}/policy/reevaluate`,
      payload: {
        since: new Date(Date.now() - DAY_MS).toISOString(),
        until: new Date(Date.now() + DAY_MS).toISOString(),
      },
    });
    expect(response.statusCode, response.body).toBe(200);
    const changed = scans.filter((scan) => scan.org === orgA && scan.tool === 'blocked-tool').map((scan) => scan.id);
    expect(changed.length).toBe(2);
    const again = await walk(admin, cursor);
    expect([...again.ids].sort()).toEqual([...changed].sort());
    // The member sees only their own re-evaluated scan again.
    const ofMember = await walk(member);
    const memberAgain = await walk(member, ofMember.cursor);
    expect(memberAgain.ids).toEqual([]);
  });

  it('reads an organization that becomes visible later from its start', async () => {
    const before = await walk(admin);
    expect(
      before.ids.some(
        (id) =>
          scans.find((scan) => scan.id === id)!.org === orgB && scans.find((scan) => scan.id === id)!.by !== admin,
      ),
    ).toBe(false);
    await setRole(ctx, orgB, admin, 'admin');
    const after = await walk(admin, before.cursor);
    expect([...after.ids].sort()).toEqual(
      scans
        .filter((scan) => scan.org === orgB && scan.by !== admin)
        .map((scan) => scan.id)
        .sort(),
    );
    // A scan stored now comes once, through the bucket it belongs to.
    const fresh = await submit(member, orgB, 'ok-tool');
    expect((await walk(admin, after.cursor)).ids).toEqual([fresh]);
    await setRole(ctx, orgB, admin, 'member');
  });

  it('sends the scans an import stores, after every change before it', async () => {
    const importer = await ctx.createUser('importer');
    await submit(importer, null, 'ok-tool');
    const before = await walk(importer);
    const exported = await ctx.request({
      method: 'POST',
      url: '/v1/evidence/exports',
      payload: { scan_ids: scans.filter((scan) => scan.by === ctx.owner).map((scan) => scan.id) },
    });
    expect(exported.statusCode, exported.body).toBe(200);
    const imported = await ctx.request({
      method: 'POST',
      url: '/v1/evidence/imports',
      headers: { 'content-type': 'application/zip' },
      payload: exported.rawPayload,
      as: importer,
    });
    expect(imported.statusCode, imported.body).toBe(201);
    const { imported: ids } = imported.json<{ imported: string[] }>();
    expect(ids).toHaveLength(2);
    const after = await page(importer, `cursor=${before.cursor}`);
    expect(after.changes.map((change) => change.id).sort()).toEqual([...ids].sort());
    const [own] = (await page(importer, '')).changes;
    expect(after.changes.every((change) => change.change_seq > own!.change_seq)).toBe(true);
  });

  it('refuses a cursor that is malformed, or of another store, another user or a later time, with 400 naming it', async () => {
    const { cursor } = await walk(member);
    const refused = async (text: string, as: TestUser = member) => {
      const response = await ctx.request({
        method: 'GET',
        url: `/v1/sync/changes?cursor=${encodeURIComponent(text)}`,
        as,
      });
      const error = expectError(response, 400, 'validation_failed');
      expect(error.details[0]!.field).toBe('cursor');
    };
    await refused('not-a-cursor');
    await refused('not a cursor!');
    await refused(cursor.slice(0, -4));
    await refused(cursor, admin);

    const sequence = await ctx.db.selectFrom('change_sequence').selectAll().executeTakeFirstOrThrow();
    const crafted = (id: string, seq: number) =>
      encodeCursor({ sequence: id, user: member.id, groups: [{ position: { seq, id: null }, keys: [OWN_BUCKET] }] });
    expect((await page(member, `cursor=${crafted(sequence.id, Number(sequence.last_seq))}`)).more).toBe(false);
    await refused(crafted(sequence.id, Number(sequence.last_seq) + 1));

    const other = await createTestContext();
    try {
      // On PostgreSQL each test store is a clone of one migrated template, sharing its sequence
      // id; a store migrated on its own, as every real one is, gets its own.
      if (onPostgres) await other.db.updateTable('change_sequence').set({ id: 'seq_other' }).execute();
      const response = await other.request({ method: 'GET', url: '/v1/sync/changes' });
      const foreign = (response.json() as SyncChanges).cursor;
      await refused(foreign, ctx.owner);
    } finally {
      await other.close();
    }
  });

  it('refuses a limit outside 1–1000 and an unknown parameter', async () => {
    for (const query of ['limit=0', 'limit=1001', 'since=2026-01-01']) {
      expectError(await ctx.request({ method: 'GET', url: `/v1/sync/changes?${query}` }), 400, 'validation_failed');
    }
    expect((await ctx.request({ method: 'GET', url: '/v1/sync/changes', as: null })).statusCode).toBe(401);
  });
});
