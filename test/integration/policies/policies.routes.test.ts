import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EMPTY_POLICY, type Policy } from '../../../src/shared/api/policies';
import type { Scan } from '../../../src/shared/api/scans';
import { expectError, snapshotDatabase } from '../../helpers/assertions';
import { createOrg, setRole, submitScan } from '../../helpers/scan-fixtures';
import { createTestContext, type TestContext, type TestUser } from '../../helpers/test-app';

const FULL: Policy = {
  max_tokens_per_scan: 1000,
  max_tokens_per_request: 100,
  allowed_tools: ['claude-code', 'cursor'],
  blocked_tools: ['copilot'],
  blocked_actions: ['shell', 'deploy'],
};

describe('policies routes', () => {
  let ctx: TestContext;
  let admin: TestUser;
  let member: TestUser;
  let outsider: TestUser;
  let orgId: string;

  beforeAll(async () => {
    ctx = await createTestContext();
    admin = await ctx.createUser('admin');
    member = await ctx.createUser('member');
    outsider = await ctx.createUser('outsider');
    orgId = await createOrg(ctx, 'Acme');
    await setRole(ctx, orgId, admin, 'admin');
    await setRole(ctx, orgId, member, 'member');
  });
  afterAll(async () => {
    await ctx.close();
  });

  const url = (id = orgId): string => `/v1/organizations/${id}/policy`;

  async function getPolicy(as: TestUser = ctx.owner, id = orgId): Promise<Policy> {
    const response = await ctx.request({ method: 'GET', url: url(id), as });
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json() as Policy;
    expect(Object.keys(body).sort()).toEqual([
      'allowed_tools',
      'blocked_actions',
      'blocked_tools',
      'max_tokens_per_request',
      'max_tokens_per_scan',
    ]);
    return body;
  }

  async function put(payload: unknown, as: TestUser | null = ctx.owner, id = orgId) {
    return ctx.request({ method: 'PUT', url: url(id), payload: payload as object, as });
  }

  it('a new organization has the empty policy', async () => {
    const fresh = await createOrg(ctx, 'Fresh');
    expect(await getPolicy(ctx.owner, fresh)).toEqual({
      max_tokens_per_scan: null,
      max_tokens_per_request: null,
      allowed_tools: null,
      blocked_tools: [],
      blocked_actions: [],
    });
    expect(EMPTY_POLICY).toEqual(await getPolicy(ctx.owner, fresh));
  });

  it('PUT replaces the whole policy and returns it; GET reads it back', async () => {
    const response = await put(FULL);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual(FULL);
    expect(await getPolicy()).toEqual(FULL);

    const replacement: Policy = {
      max_tokens_per_scan: null,
      max_tokens_per_request: 0,
      allowed_tools: [],
      blocked_tools: [],
      blocked_actions: ['Shell'],
    };
    const second = await put(replacement, admin);
    expect(second.statusCode, second.body).toBe(200);
    expect(second.json()).toEqual(replacement);
    expect(await getPolicy(member)).toEqual(replacement);

    const back = await put(EMPTY_POLICY);
    expect(back.json()).toEqual(EMPTY_POLICY);
    expect(await getPolicy()).toEqual(EMPTY_POLICY);
  });

  it('keeps names as written and accepts the largest safe integer', async () => {
    const policy: Policy = {
      ...FULL,
      max_tokens_per_scan: Number.MAX_SAFE_INTEGER,
      allowed_tools: ['Claude Code', 'ünïcode'],
    };
    expect((await put(policy)).json()).toEqual(policy);
    expect(await getPolicy()).toEqual(policy);
  });

  describe('refuses invalid policies, naming the field, without changing anything', () => {
    const cases: [string, unknown, string][] = [
      ['negative scan limit', { ...FULL, max_tokens_per_scan: -1 }, 'max_tokens_per_scan'],
      ['negative request limit', { ...FULL, max_tokens_per_request: -100 }, 'max_tokens_per_request'],
      ['fractional limit', { ...FULL, max_tokens_per_scan: 1.5 }, 'max_tokens_per_scan'],
      ['string limit', { ...FULL, max_tokens_per_request: '100' }, 'max_tokens_per_request'],
      ['unsafe integer', { ...FULL, max_tokens_per_scan: Number.MAX_SAFE_INTEGER + 1 }, 'max_tokens_per_scan'],
      ['missing field', { ...FULL, blocked_actions: undefined }, 'blocked_actions'],
      ['unknown field', { ...FULL, max_tokens_per_day: 5 }, 'max_tokens_per_day'],
      ['allowed_tools not an array', { ...FULL, allowed_tools: 'cursor' }, 'allowed_tools'],
      ['blocked_tools null', { ...FULL, blocked_tools: null }, 'blocked_tools'],
      ['blocked_actions an object', { ...FULL, blocked_actions: { shell: true } }, 'blocked_actions'],
      ['a non-string name', { ...FULL, blocked_tools: ['ok', 5] }, 'blocked_tools.1'],
      ['an empty name', { ...FULL, blocked_actions: [''] }, 'blocked_actions.0'],
    ];

    for (const [name, payload, field] of cases) {
      it(name, async () => {
        expect((await put(FULL)).statusCode).toBe(200);
        const snapshot = await snapshotDatabase(ctx.db);
        const { details } = expectError(await put(payload), 400, 'validation_failed');
        expect(details.map((d) => d.field)).toContain(field);
        expect(await snapshotDatabase(ctx.db)).toEqual(snapshot);
        expect(await getPolicy()).toEqual(FULL);
      });
    }

    it('an array or nothing as the body', async () => {
      const snapshot = await snapshotDatabase(ctx.db);
      expectError(await put([FULL]), 400, 'validation_failed');
      expectError(await put({}), 400, 'validation_failed');
      expect(await snapshotDatabase(ctx.db)).toEqual(snapshot);
    });
  });

  describe('permissions', () => {
    it('members may read the policy; admins and owners may change it; members get 403', async () => {
      expect((await put(FULL)).statusCode).toBe(200);
      expect(await getPolicy(member)).toEqual(FULL);
      expect(await getPolicy(admin)).toEqual(FULL);
      const snapshot = await snapshotDatabase(ctx.db);
      expectError(await put(EMPTY_POLICY, member), 403, 'forbidden');
      expect(await snapshotDatabase(ctx.db)).toEqual(snapshot);
    });

    it('a non-member gets 404 for reading and writing, like for an organization that does not exist', async () => {
      const snapshot = await snapshotDatabase(ctx.db);
      expectError(await ctx.request({ method: 'GET', url: url(), as: outsider }), 404, 'not_found');
      expectError(await put(EMPTY_POLICY, outsider), 404, 'not_found');
      expectError(await ctx.request({ method: 'GET', url: url('org_01JZZZZZZZZZZZZZZZZZZZZZZZ') }), 404, 'not_found');
      expectError(await put(EMPTY_POLICY, ctx.owner, 'org_01JZZZZZZZZZZZZZZZZZZZZZZZ'), 404, 'not_found');
      expect(await snapshotDatabase(ctx.db)).toEqual(snapshot);
    });

    it('no token: 401', async () => {
      expectError(await ctx.request({ method: 'GET', url: url(), as: null }), 401, 'unauthorized');
      expectError(await put(EMPTY_POLICY, null), 401, 'unauthorized');
    });
  });

  it('applies to scans submitted after the change, not to earlier ones', async () => {
    expect((await put(EMPTY_POLICY)).statusCode).toBe(200);
    const body = { tool: 'copilot', action: 'shell', tokens: 5000, organization_id: orgId };
    const before = await submitScan(ctx, body);
    expect(before.violations).toEqual([]);

    expect((await put(FULL, admin)).statusCode).toBe(200);
    const after = await submitScan(ctx, body, member);
    expect(after.violations.map((v) => [v.rule, v.severity, v.timeline_index])).toEqual([
      ['tool.blocked', 'critical', null],
      ['tool.not_allowed', 'high', null],
      ['tokens.scan_limit', 'medium', null],
      ['action.blocked', 'high', 0],
      ['tokens.request_limit', 'low', 0],
    ]);

    const reread = (await ctx.request({ method: 'GET', url: `/v1/scans/${before.id}` })).json() as Scan;
    expect(reread.violations).toEqual([]);

    expect((await put(EMPTY_POLICY)).statusCode).toBe(200);
    const kept = (await ctx.request({ method: 'GET', url: `/v1/scans/${after.id}` })).json() as Scan;
    expect(kept.violations).toEqual(after.violations);

    // Another organization's policy does not apply.
    const elsewhere = await createOrg(ctx, 'Elsewhere');
    expect((await put(FULL, ctx.owner, elsewhere)).statusCode).toBe(200);
    expect((await submitScan(ctx, body)).violations).toEqual([]);
    expect((await submitScan(ctx, { ...body, organization_id: undefined })).violations).toEqual([]);
  });
});
