/**
 * A package scan whose id names a scan the importer can see (docs/contract/auth.md#visibility) is compared with that
 * scan, whoever submitted it: a workspace owner importing an export of their organization's scans
 * gets `unchanged`, not a second copy. Only ids the importer cannot see are stored under a
 * derived id (docs/security.md, Imported ids).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { derivedScanId } from '../../../../src/main/evidence/import/import-ids';
import type { Scan, ScanList } from '../../../../src/shared/api/scans';
import type { TokenStats } from '../../../../src/shared/api/stats';
import { expectError, snapshotDatabase } from '../../../helpers/assertions';
import { format1, json, postZip } from '../../../helpers/import-fixtures';
import { createTestContext, type TestContext, type TestUser } from '../../../helpers/test-app';
import { unzip } from '../../../helpers/zip-builder';

describe('importing scans the importer can see', () => {
  let ctx: TestContext;
  /** Submits org scans; the owner sees them as the organization's owner, not as their submitter. */
  let member: TestUser;
  /** In the organization as a member: sees only their own scans of it. */
  let peer: TestUser;
  let orgId: string;
  let scans: Scan[];
  let exported: Buffer;

  beforeAll(async () => {
    ctx = await createTestContext();
    member = await ctx.createUser('mira');
    peer = await ctx.createUser('pavel');
    const org = await ctx.request({ method: 'POST', url: '/v1/organizations', payload: { name: 'Shared' } });
    orgId = (org.json() as { id: string }).id;
    for (const user of [member, peer]) {
      const added = await ctx.request({
        method: 'PUT',
        url: `/v1/organizations/${orgId}/members/${user.id}`,
        payload: { role: 'member' },
      });
      expect(added.statusCode, added.body).toBe(200);
    }
    const policy = await ctx.request({
      method: 'PUT',
      url: `/v1/organizations/${orgId}/policy`,
      payload: {
        max_tokens_per_scan: null,
        max_tokens_per_request: 100,
        allowed_tools: null,
        blocked_tools: [],
        blocked_actions: [],
      },
    });
    expect(policy.statusCode, policy.body).toBe(200);
    scans = [];
    for (const [tool, tokens] of [
      ['claude-code', [40, 300]],
      ['cursor', [20, 30]],
    ] as const) {
      const submitted = await ctx.request({
        as: member,
        method: 'POST',
        url: '/v1/scans',
        payload: {
          tool,
          action: 'edit',
          tokens: tokens[0] + tokens[1],
          organization_id: orgId,
          token_breakdown: { input: tokens[0], output: tokens[1] },
          timeline: [
            { timestamp: '2026-11-20T08:00:00.000Z', action: 'read', tokens: tokens[0] },
            { timestamp: '2026-11-20T08:00:05.000Z', action: 'edit', tokens: tokens[1] },
          ],
        },
      });
      expect(submitted.statusCode, submitted.body).toBe(201);
      scans.push(submitted.json() as Scan);
    }
    expect(scans[0]!.violations.length, 'a violation, so that violation ids are compared too').toBe(1);
    const response = await ctx.request({
      method: 'POST',
      url: '/v1/evidence/exports',
      payload: { scan_ids: scans.map((scan) => scan.id) },
    });
    expect(response.statusCode, response.body).toBe(200);
    exported = response.rawPayload;
  });

  afterAll(async () => {
    await ctx.close();
  });

  /** What the overview and the scans page count for `as`. */
  async function counts(as: TestUser = ctx.owner) {
    const list = (await ctx.request({ as, method: 'GET', url: '/v1/scans?limit=500' })).json() as ScanList;
    const stats = (
      await ctx.request({ as, method: 'GET', url: '/v1/stats/tokens?bucket=day&since=2026-11-01' })
    ).json() as TokenStats;
    return {
      total: list.total,
      ids: list.scans.map((scan) => scan.id),
      scans: stats.buckets.reduce((sum, bucket) => sum + bucket.scans, 0),
      tokens: stats.buckets.reduce((sum, bucket) => sum + bucket.tokens, 0),
    };
  }

  /** The exported package with one scan's scan.json changed by `change`. */
  async function modified(index: number, change: (scan: Scan) => Scan): Promise<Buffer> {
    const files = await unzip(exported);
    const path = `scans/${scans[index]!.id}/scan.json`;
    const changed = change(JSON.parse(files.get(path)!.toString()) as Scan);
    return format1(
      new Map(files).set(path, json(changed)),
      scans.map((scan) => scan.id),
    );
  }

  it("the organization's owner importing its export of a member's scans: unchanged, no new rows, the same counts", async () => {
    const before = await snapshotDatabase(ctx.db);
    const seen = await counts();
    expect(seen.total).toBe(2);
    const response = await postZip(ctx, exported);
    expect(response.statusCode, response.body).toBe(201);
    const ids = scans.map((scan) => scan.id);
    expect(response.json()).toEqual({
      imported: [],
      unchanged: ids,
      ids: Object.fromEntries(ids.map((id) => [id, id])),
    });
    expect(await snapshotDatabase(ctx.db)).toEqual(before);
    expect(await counts()).toEqual(seen);
    // Nothing under the id an import of an unseen scan would take.
    for (const id of ids) {
      const derived = await ctx.request({ method: 'GET', url: `/v1/scans/${derivedScanId(ctx.owner.id, id)}` });
      expect(derived.statusCode).toBe(404);
    }
  });

  it.each([
    ['tool', (scan: Scan): Scan => ({ ...scan, tool: 'copilot' }), 'tool differs'],
    ['action', (scan: Scan): Scan => ({ ...scan, action: 'chat' }), 'action differs'],
    ['status', (scan: Scan): Scan => ({ ...scan, status: 'failed' }), 'status differs'],
  ])(
    'a package that changes %s of a scan the owner can see: 409 naming it, nothing stored',
    async (_field, change, why) => {
      const before = await snapshotDatabase(ctx.db);
      const zip = await modified(1, change);
      const error = expectError(await postZip(ctx, zip), 409, 'conflict');
      expect(error.message).toBe(`scan ${scans[1]!.id} already exists with different content`);
      expect(error.details[0]!.message).toBe(`${scans[1]!.id}: ${why}`);
      expect(await snapshotDatabase(ctx.db)).toEqual(before);
    },
  );

  it('the submitter importing the export is unchanged too', async () => {
    const before = await snapshotDatabase(ctx.db);
    const response = await ctx.request({
      as: member,
      method: 'POST',
      url: '/v1/evidence/imports',
      headers: { 'content-type': 'application/zip' },
      payload: exported,
    });
    expect(response.statusCode, response.body).toBe(201);
    expect((response.json() as { unchanged: string[] }).unchanged).toEqual(scans.map((scan) => scan.id));
    expect(await snapshotDatabase(ctx.db)).toEqual(before);
  });

  it("a member who cannot see a peer's scans imports them under derived ids, as before, and the same package changed is no oracle", async () => {
    for (const scan of scans) {
      expect((await ctx.request({ as: peer, method: 'GET', url: `/v1/scans/${scan.id}` })).statusCode).toBe(404);
    }
    const derived = scans.map((scan) => derivedScanId(peer.id, scan.id));
    const response = await ctx.request({
      as: peer,
      method: 'POST',
      url: '/v1/evidence/imports',
      headers: { 'content-type': 'application/zip' },
      payload: await modified(1, (scan) => ({ ...scan, tool: 'copilot' })),
    });
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json()).toEqual({
      imported: derived,
      unchanged: [],
      ids: Object.fromEntries(scans.map((scan, i) => [scan.id, derived[i]])),
    });
    const copy = (await ctx.request({ as: peer, method: 'GET', url: `/v1/scans/${derived[1]}` })).json() as Scan;
    expect(copy).toMatchObject({ tool: 'copilot', source: 'imported', organization_id: null });
    // The member's scans are as they were.
    const original = (await ctx.request({ as: member, method: 'GET', url: `/v1/scans/${scans[1]!.id}` })).json();
    expect(original).toEqual(scans[1]);
  });
});
