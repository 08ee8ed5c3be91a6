import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Evidence, TimelineBuckets } from '../../../src/shared/api/evidence';
import type { Scan, ScanList } from '../../../src/shared/api/scans';
import type { TokenStats } from '../../../src/shared/api/stats';
import { expectError } from '../../helpers/assertions';
import { createOrg, setRole, submitScan } from '../../helpers/scan-fixtures';
import { createTestContext, type TestContext, type TestUser } from '../../helpers/test-app';

describe('scan visibility', () => {
  let ctx: TestContext;
  let admin: TestUser;
  let member: TestUser;
  let member2: TestUser;
  let outsider: TestUser;
  let orgId: string;
  /** Scans by submitter name. */
  const scans: Record<string, Scan[]> = {};

  beforeAll(async () => {
    ctx = await createTestContext();
    admin = await ctx.createUser('admin');
    member = await ctx.createUser('member');
    member2 = await ctx.createUser('member2');
    outsider = await ctx.createUser('outsider');
    orgId = await createOrg(ctx, 'Acme');
    await setRole(ctx, orgId, admin, 'admin');
    await setRole(ctx, orgId, member, 'member');
    await setRole(ctx, orgId, member2, 'member');

    const submit = async (name: string, as: TestUser, body: Record<string, unknown>): Promise<void> => {
      (scans[name] ??= []).push(await submitScan(ctx, { action: 'edit', ...body }, as));
    };
    await submit('owner-org', ctx.owner, { tool: 'owner-tool', tokens: 1, organization_id: orgId });
    await submit('admin-org', admin, { tool: 'admin-tool', tokens: 10, organization_id: orgId });
    await submit('member-org', member, { tool: 'member-tool', tokens: 100, organization_id: orgId });
    await submit('member-org', member, { tool: 'member-tool', tokens: 200, organization_id: orgId });
    await submit('member2-org', member2, { tool: 'member2-tool', tokens: 1000, organization_id: orgId });
    await submit('owner-none', ctx.owner, { tool: 'owner-tool', tokens: 10_000 });
    await submit('member-none', member, { tool: 'member-tool', tokens: 100_000 });
    await submit('outsider-none', outsider, { tool: 'outsider-tool', tokens: 1_000_000 });
  });
  afterAll(async () => {
    await ctx.close();
  });

  const ids = (...names: string[]): string[] =>
    names
      .flatMap((name) => scans[name] ?? [])
      .map((s) => s.id)
      .sort()
      .reverse();

  async function listIds(as: TestUser, query = ''): Promise<{ ids: string[]; total: number }> {
    const response = await ctx.request({ method: 'GET', url: `/v1/scans?limit=500${query}`, as });
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json() as ScanList;
    // Submitted in id order within the same test run; created_at may tie, and then id decides.
    return { ids: body.scans.map((s) => s.id), total: body.total };
  }

  async function tokensSeenByStats(as: TestUser, query = ''): Promise<number> {
    const response = await ctx.request({ method: 'GET', url: `/v1/stats/tokens?bucket=day${query}`, as });
    expect(response.statusCode, response.body).toBe(200);
    return (response.json() as TokenStats).buckets.reduce((sum, b) => sum + b.tokens, 0);
  }

  it('a member sees only their own scans of the organization, and their own without one', async () => {
    expect(await listIds(member)).toEqual({ ids: ids('member-org', 'member-none'), total: 3 });
    expect(await listIds(member, `&organization_id=${orgId}`)).toEqual({ ids: ids('member-org'), total: 2 });
    expect(await listIds(member2)).toEqual({ ids: ids('member2-org'), total: 1 });
    expect(await tokensSeenByStats(member)).toBe(100_300);
  });

  it('an admin and the owner see all of the organization’s scans, plus their own', async () => {
    const org = ['owner-org', 'admin-org', 'member-org', 'member2-org'];
    expect(await listIds(admin)).toEqual({ ids: ids(...org), total: 5 });
    expect(await listIds(ctx.owner)).toEqual({ ids: ids(...org, 'owner-none'), total: 6 });
    expect(await listIds(ctx.owner, `&organization_id=${orgId}`)).toEqual({ ids: ids(...org), total: 5 });
    expect(await tokensSeenByStats(admin)).toBe(1311);
    expect(await tokensSeenByStats(ctx.owner)).toBe(11_311);
    expect(await tokensSeenByStats(ctx.owner, `&organization_id=${orgId}`)).toBe(1311);
  });

  it('an outsider sees only their own scan', async () => {
    expect(await listIds(outsider)).toEqual({ ids: ids('outsider-none'), total: 1 });
    expect(await listIds(outsider, `&organization_id=${orgId}`)).toEqual({ ids: [], total: 0 });
    expect(await tokensSeenByStats(outsider)).toBe(1_000_000);
  });

  const paths = (id: string): string[] => [
    `/v1/scans/${id}`,
    `/v1/scans/${id}/evidence`,
    `/v1/scans/${id}/evidence?types=violations`,
    `/v1/scans/${id}/evidence/timeline/buckets`,
  ];

  async function expectVisible(as: TestUser, id: string): Promise<void> {
    for (const url of paths(id)) {
      const response = await ctx.request({ method: 'GET', url, as });
      expect(response.statusCode, `${url}: ${response.body}`).toBe(200);
    }
    const scan = (await ctx.request({ method: 'GET', url: `/v1/scans/${id}`, as })).json() as Scan;
    expect(scan.id).toBe(id);
    const evidence = (await ctx.request({ method: 'GET', url: `/v1/scans/${id}/evidence`, as })).json() as Evidence;
    expect(evidence.scan_id).toBe(id);
    const buckets = (
      await ctx.request({ method: 'GET', url: `/v1/scans/${id}/evidence/timeline/buckets`, as })
    ).json() as TimelineBuckets;
    expect(buckets.buckets.length).toBe(1);
  }

  async function expectHidden(as: TestUser, id: string): Promise<void> {
    for (const url of paths(id)) {
      const response = await ctx.request({ method: 'GET', url, as });
      const { message } = expectError(response, 404, 'not_found');
      expect(message).toBe('scan not found');
    }
  }

  it('get, evidence and buckets follow the same rule', async () => {
    const [ownerOrg, adminOrg, memberOrg, member2Org, ownerNone, memberNone, outsiderNone] = [
      'owner-org',
      'admin-org',
      'member-org',
      'member2-org',
      'owner-none',
      'member-none',
      'outsider-none',
    ].map((name) => scans[name]![0]!.id) as [string, string, string, string, string, string, string];

    for (const id of [memberOrg, memberNone]) await expectVisible(member, id);
    for (const id of [ownerOrg, adminOrg, member2Org, ownerNone, outsiderNone]) await expectHidden(member, id);

    for (const id of [ownerOrg, adminOrg, memberOrg, member2Org]) await expectVisible(admin, id);
    for (const id of [ownerNone, memberNone, outsiderNone]) await expectHidden(admin, id);

    for (const id of [ownerOrg, adminOrg, memberOrg, member2Org, ownerNone]) await expectVisible(ctx.owner, id);
    for (const id of [memberNone, outsiderNone]) await expectHidden(ctx.owner, id);

    await expectVisible(outsider, outsiderNone);
    for (const id of [ownerOrg, adminOrg, memberOrg, member2Org, ownerNone, memberNone]) {
      await expectHidden(outsider, id);
    }
    // A hidden scan and a scan that does not exist answer alike.
    await expectHidden(outsider, 'scan_01JZZZZZZZZZZZZZZZZZZZZZZZ');
  });

  it('a member promoted to admin sees the whole organization; demoted back, only their own again', async () => {
    await setRole(ctx, orgId, member2, 'admin');
    expect((await listIds(member2)).total).toBe(5);
    await expectVisible(member2, scans['member-org']![0]!.id);
    await setRole(ctx, orgId, member2, 'member');
    expect(await listIds(member2)).toEqual({ ids: ids('member2-org'), total: 1 });
    await expectHidden(member2, scans['member-org']![0]!.id);
  });

  it('a user removed from the organization still sees the scans they submitted', async () => {
    const response = await ctx.request({ method: 'DELETE', url: `/v1/organizations/${orgId}/members/${member2.id}` });
    expect(response.statusCode, response.body).toBe(204);
    expect(await listIds(member2)).toEqual({ ids: ids('member2-org'), total: 1 });
    await expectVisible(member2, scans['member2-org']![0]!.id);
  });

  it('without a token: 401', async () => {
    expectError(await ctx.request({ method: 'GET', url: '/v1/scans', as: null }), 401, 'unauthorized');
    expectError(
      await ctx.request({ method: 'GET', url: `/v1/scans/${scans['owner-org']![0]!.id}`, as: null }),
      401,
      'unauthorized',
    );
  });
});
