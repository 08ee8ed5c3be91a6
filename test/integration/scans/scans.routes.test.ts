import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Evidence } from '../../../src/shared/api/evidence';
import type { Scan } from '../../../src/shared/api/scans';
import { expectError, snapshotDatabase } from '../../helpers/assertions';
import { createOrg, putPolicy, submitScan } from '../../helpers/scan-fixtures';
import { createTestContext, type TestContext, type TestUser } from '../../helpers/test-app';

const ISO_MS_Z = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const SCAN_ID = /^scan_[0-9A-HJKMNP-TV-Z]{26}$/;
const VIOLATION_ID = /^vio_[0-9A-HJKMNP-TV-Z]{26}$/;

describe('scans routes: submit and read', () => {
  let ctx: TestContext;
  let outsider: TestUser;
  let orgId: string;
  let outsiderOrgId: string;

  beforeAll(async () => {
    ctx = await createTestContext();
    outsider = await ctx.createUser('outsider');
    orgId = await createOrg(ctx, 'Acme');
    outsiderOrgId = await createOrg(ctx, 'Elsewhere', outsider);
    await putPolicy(ctx, orgId, {
      max_tokens_per_scan: 1000,
      max_tokens_per_request: 500,
      allowed_tools: null,
      blocked_tools: ['forbidden-tool'],
      blocked_actions: ['shell'],
    });
  });
  afterAll(async () => {
    await ctx.close();
  });

  async function evidenceOf(id: string, as: TestUser = ctx.owner): Promise<Evidence['evidence']> {
    const response = await ctx.request({ method: 'GET', url: `/v1/scans/${id}/evidence`, as });
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json() as Evidence;
    expect(body.scan_id).toBe(id);
    return body.evidence;
  }

  it('stores a submitted scan, evaluates it and returns the scan object', async () => {
    const before = Date.now();
    const response = await ctx.request({
      method: 'POST',
      url: '/v1/scans',
      payload: {
        tool: 'Forbidden-Tool',
        action: 'refactor',
        tokens: 1600,
        organization_id: orgId,
        timeline: [
          { timestamp: '2026-11-01T10:00:02.000Z', action: 'edit', tokens: 100 },
          { timestamp: '2026-11-01T10:00:00.000Z', action: 'Shell', tokens: 900 },
          { timestamp: '2026-11-01T10:00:01.000Z', action: 'read', tokens: 600 },
        ],
        token_breakdown: { input: 1200, output: 300, cached: 100 },
      },
    });
    const after = Date.now();
    expect(response.statusCode, response.body).toBe(201);
    const scan = response.json() as Scan;
    expect(response.headers.location).toBe(`/v1/scans/${scan.id}`);
    expect(Object.keys(scan).sort()).toEqual([
      'action',
      'created_at',
      'id',
      'organization_id',
      'source',
      'status',
      'tokens',
      'tool',
      'violation_count',
      'violations',
      'violations_truncated',
    ]);
    expect(scan).toEqual({
      id: expect.stringMatching(SCAN_ID),
      created_at: expect.stringMatching(ISO_MS_Z),
      tool: 'Forbidden-Tool',
      action: 'refactor',
      tokens: 1600,
      status: 'completed',
      organization_id: orgId,
      source: 'submitted',
      violations: [
        {
          id: expect.stringMatching(VIOLATION_ID),
          rule: 'tool.blocked',
          severity: 'critical',
          message: 'tool "Forbidden-Tool" is blocked by the organization\'s policy',
          timeline_index: null,
        },
        {
          id: expect.stringMatching(VIOLATION_ID),
          rule: 'tokens.scan_limit',
          severity: 'medium',
          message: 'the scan used 1,600 tokens, over the limit of 1,000 per scan',
          timeline_index: null,
        },
        // The timeline is stored in timestamp order: Shell (900) is entry 0, read (600) entry 1.
        {
          id: expect.stringMatching(VIOLATION_ID),
          rule: 'action.blocked',
          severity: 'high',
          message: 'action "Shell" is blocked by the organization\'s policy',
          timeline_index: 0,
        },
        {
          id: expect.stringMatching(VIOLATION_ID),
          rule: 'tokens.request_limit',
          severity: 'low',
          message: 'a request used 900 tokens, over the limit of 500 per request',
          timeline_index: 0,
        },
        {
          id: expect.stringMatching(VIOLATION_ID),
          rule: 'tokens.request_limit',
          severity: 'low',
          message: 'a request used 600 tokens, over the limit of 500 per request',
          timeline_index: 1,
        },
      ],
      violation_count: 5,
      violations_truncated: false,
    });
    for (const violation of scan.violations) {
      expect(Object.keys(violation).sort()).toEqual(['id', 'message', 'rule', 'severity', 'timeline_index']);
    }
    expect(new Set(scan.violations.map((v) => v.id)).size).toBe(5);
    const createdAt = Date.parse(scan.created_at);
    expect(createdAt).toBeGreaterThanOrEqual(before);
    expect(createdAt).toBeLessThanOrEqual(after);

    const read = await ctx.request({ method: 'GET', url: `/v1/scans/${scan.id}` });
    expect(read.statusCode, read.body).toBe(200);
    expect(read.json()).toEqual(scan);

    const evidence = await evidenceOf(scan.id);
    expect(evidence).toEqual({
      request_count: 3,
      total_tokens: 1600,
      timeline: [
        { timestamp: '2026-11-01T10:00:00.000Z', action: 'Shell', tokens: 900 },
        { timestamp: '2026-11-01T10:00:01.000Z', action: 'read', tokens: 600 },
        { timestamp: '2026-11-01T10:00:02.000Z', action: 'edit', tokens: 100 },
      ],
      token_breakdown: { input: 1200, output: 300, cached: 100 },
      violations: scan.violations,
    });

    const list = await ctx.request({ method: 'GET', url: `/v1/scans?organization_id=${orgId}` });
    expect(list.statusCode, list.body).toBe(200);
    const row = (list.json() as { scans: Record<string, unknown>[] }).scans.find((s) => s.id === scan.id);
    expect(row).toEqual({
      id: scan.id,
      created_at: scan.created_at,
      tool: 'Forbidden-Tool',
      tokens: 1600,
      status: 'completed',
      action: 'refactor',
      organization_id: orgId,
      source: 'submitted',
      violation_count: 5,
      worst_severity: 'critical',
    });
  });

  it('without a timeline, stores one entry at created_at with the scan action and tokens', async () => {
    const scan = await submitScan(ctx, { tool: 'cursor', action: 'chat', tokens: 42 });
    expect(scan.organization_id).toBeNull();
    expect(scan.violations).toEqual([]);
    expect(await evidenceOf(scan.id)).toEqual({
      request_count: 1,
      total_tokens: 42,
      timeline: [{ timestamp: scan.created_at, action: 'chat', tokens: 42 }],
      token_breakdown: {},
      violations: [],
    });
  });

  it('evaluates a scan without a timeline against the policy, per-request limit included', async () => {
    const scan = await submitScan(ctx, { tool: 'cursor', action: 'SHELL', tokens: 501, organization_id: orgId });
    expect(scan.violations.map((v) => [v.rule, v.timeline_index])).toEqual([
      ['action.blocked', 0],
      ['tokens.request_limit', 0],
    ]);
  });

  it('does not evaluate scans without an organization', async () => {
    const scan = await submitScan(ctx, { tool: 'forbidden-tool', action: 'shell', tokens: 99_999 });
    expect(scan.violations).toEqual([]);
  });

  it('keeps entries with equal timestamps in submitted order (stable sort)', async () => {
    const timeline = [
      { timestamp: '2026-11-01T10:00:05.000Z', action: 'e', tokens: 5 },
      { timestamp: '2026-11-01T10:00:01.000Z', action: 'b', tokens: 2 },
      { timestamp: '2026-11-01T10:00:01.000Z', action: 'c', tokens: 3 },
      { timestamp: '2026-11-01T10:00:00.000Z', action: 'a', tokens: 1 },
      // Same instant as b and c, written with an offset: it sorts after them.
      { timestamp: '2026-11-01T11:00:01+01:00', action: 'd', tokens: 4 },
    ];
    const scan = await submitScan(ctx, { tool: 't', action: 'x', tokens: 15, timeline });
    const evidence = await evidenceOf(scan.id);
    expect(evidence.timeline?.map((e) => e.action)).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(evidence.timeline?.[3]).toEqual({ timestamp: '2026-11-01T10:00:01.000Z', action: 'd', tokens: 4 });
  });

  it('stores each of many submits arriving together (one group commit) with its own timeline', async () => {
    const big = 2 ** 40;
    const timelineOf = (i: number) =>
      Array.from({ length: i + 1 }, (_, j) => ({
        timestamp: new Date(Date.UTC(2026, 10, 2, 9, i, j)).toISOString(),
        action: `a${i}-${j}`,
        tokens: j === 0 ? big + i : j,
      }));
    const tokensOf = (i: number) => timelineOf(i).reduce((sum, entry) => sum + entry.tokens, 0);
    const scans = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        submitScan(ctx, { tool: 'batched', action: 'x', tokens: tokensOf(i), timeline: timelineOf(i) }),
      ),
    );
    for (const [i, scan] of scans.entries()) {
      expect(scan.tokens).toBe(tokensOf(i));
      expect((await evidenceOf(scan.id)).timeline).toEqual(timelineOf(i));
    }
    const rows = await ctx.db.selectFrom('scans').select(['change_seq']).where('tool', '=', 'batched').execute();
    expect(rows.map((row) => Number(row.change_seq)).every((seq) => seq > 0)).toBe(true);
  });

  it('stores the violations of submits arriving together, and refuses only the one that fails', async () => {
    const entry = (action: string, tokens: number) => ({ timestamp: '2026-11-03T09:00:00.000Z', action, tokens });
    const bodies = Array.from({ length: 8 }, (_, i) => ({
      tool: i % 2 ? 'forbidden-tool' : `allowed-${i}`,
      action: 'x',
      tokens: 600 * (i + 1),
      organization_id: orgId,
      token_breakdown: { input: i },
      timeline: [entry('shell', 100), entry('edit', 600 * (i + 1) - 100)],
    }));
    const requests = [
      ...bodies.map((payload) => ({ payload, headers: {} })),
      { payload: { ...bodies[0]!, organization_id: outsiderOrgId }, headers: {} },
      { payload: bodies[1]!, headers: { 'idempotency-key': 'together-with-others' } },
    ];
    const responses = await Promise.all(
      requests.map(({ payload, headers }) => ctx.request({ method: 'POST', url: '/v1/scans', payload, headers })),
    );
    expect(responses.map((response) => response.statusCode)).toEqual([...bodies.map(() => 201), 404, 201]);
    for (const [i, response] of responses.entries()) {
      if (response.statusCode !== 201) continue;
      const body = requests[i]!.payload;
      const scan = response.json() as Scan;
      const read = (await ctx.request({ method: 'GET', url: `/v1/scans/${scan.id}` })).json() as Scan;
      expect(read.violations).toEqual(scan.violations);
      expect(scan.violations.map((v) => [v.rule, v.timeline_index])).toEqual([
        ...(body.tool === 'forbidden-tool' ? [['tool.blocked', null]] : []),
        ...(body.tokens > 1000 ? [['tokens.scan_limit', null]] : []),
        ['action.blocked', 0],
        ...(body.tokens - 100 > 500 ? [['tokens.request_limit', 1]] : []),
      ]);
      const evidence = await evidenceOf(scan.id);
      expect([evidence.timeline?.length, evidence.token_breakdown]).toEqual([2, body.token_breakdown]);
    }
  });

  it('stores token_breakdown as given and returns it with the evidence', async () => {
    const breakdown = { input: 10, output: 20, cached: 0, 'cache-write': 7 };
    const scan = await submitScan(ctx, { tool: 't', action: 'a', tokens: 37, token_breakdown: breakdown });
    expect((await evidenceOf(scan.id)).token_breakdown).toEqual(breakdown);
  });

  it('accepts tokens 0 and the largest safe integer', async () => {
    expect((await submitScan(ctx, { tool: 't', action: 'a', tokens: 0 })).tokens).toBe(0);
    const big = await submitScan(ctx, { tool: 't', action: 'a', tokens: Number.MAX_SAFE_INTEGER });
    expect(big.tokens).toBe(Number.MAX_SAFE_INTEGER);
    expect((await evidenceOf(big.id)).total_tokens).toBe(Number.MAX_SAFE_INTEGER);
  });

  it('accepts a member submitting into their organization', async () => {
    const member = await ctx.createUser('member-submitter');
    const response = await ctx.request({
      method: 'PUT',
      url: `/v1/organizations/${orgId}/members/${member.id}`,
      payload: { role: 'member' },
    });
    expect(response.statusCode, response.body).toBe(200);
    const scan = await submitScan(
      ctx,
      { tool: 'forbidden-tool', action: 'a', tokens: 1, organization_id: orgId },
      member,
    );
    expect(scan.violations.map((v) => v.rule)).toEqual(['tool.blocked']);
  });

  it('404s an unknown scan id', async () => {
    expectError(
      await ctx.request({ method: 'GET', url: '/v1/scans/scan_01JZZZZZZZZZZZZZZZZZZZZZZZ' }),
      404,
      'not_found',
    );
  });

  describe('refused submissions change nothing', () => {
    const valid = { tool: 'cursor', action: 'chat', tokens: 3 };
    const entry = { timestamp: '2026-11-01T10:00:00.000Z', action: 'chat', tokens: 3 };

    async function expectRefused(
      payload: unknown,
      status: 400 | 404 | 413,
      field: string | null,
      as: TestUser = ctx.owner,
    ): Promise<void> {
      const snapshot = await snapshotDatabase(ctx.db);
      const response = await ctx.request({ method: 'POST', url: '/v1/scans', payload: payload as object, as });
      const code = status === 400 ? 'validation_failed' : status === 404 ? 'not_found' : 'payload_too_large';
      const { details } = expectError(response, status, code);
      if (field !== null) expect(details.map((d) => d.field)).toContain(field);
      expect(await snapshotDatabase(ctx.db)).toEqual(snapshot);
    }

    it('timeline tokens that do not add up to tokens', async () => {
      await expectRefused({ ...valid, tokens: 4, timeline: [entry] }, 400, 'tokens');
      await expectRefused({ ...valid, tokens: 5, timeline: [entry, { ...entry, tokens: 1 }] }, 400, 'tokens');
      await expectRefused({ ...valid, tokens: 0, timeline: [entry] }, 400, 'tokens');
    });

    it('an empty timeline', async () => {
      await expectRefused({ ...valid, tokens: 0, timeline: [] }, 400, 'timeline');
    });

    it('more than 100,000 timeline entries', async () => {
      const timeline = Array.from({ length: 100_001 }, () => ({ ...entry, tokens: 0 }));
      const snapshot = await snapshotDatabase(ctx.db);
      const response = await ctx.request({
        method: 'POST',
        url: '/v1/scans',
        payload: { ...valid, tokens: 0, timeline },
      });
      expect([400, 413]).toContain(response.statusCode);
      if (response.statusCode === 400) {
        const { details } = expectError(response, 400, 'validation_failed');
        expect(details.map((d) => d.field)).toContain('timeline');
      } else {
        expectError(response, 413, 'payload_too_large');
      }
      expect(await snapshotDatabase(ctx.db)).toEqual(snapshot);
    });

    it('bad tokens: negative, fractional, string, null, unsafe', async () => {
      for (const tokens of [-1, 1.5, '3', null, Number.MAX_SAFE_INTEGER + 1, true]) {
        await expectRefused({ ...valid, tokens }, 400, 'tokens');
      }
      await expectRefused({ ...valid, timeline: [{ ...entry, tokens: -3 }] }, 400, 'timeline.0.tokens');
      await expectRefused({ ...valid, timeline: [{ ...entry, tokens: 2.5 }] }, 400, 'timeline.0.tokens');
      await expectRefused({ ...valid, timeline: [{ ...entry, tokens: '3' }] }, 400, 'timeline.0.tokens');
      await expectRefused({ ...valid, token_breakdown: { input: -1 } }, 400, 'token_breakdown.input');
      await expectRefused({ ...valid, token_breakdown: { input: 0.5 } }, 400, 'token_breakdown.input');
      await expectRefused({ ...valid, token_breakdown: [1, 2] }, 400, 'token_breakdown');
    });

    it('missing or bad tool and action', async () => {
      await expectRefused({ action: 'a', tokens: 1 }, 400, 'tool');
      await expectRefused({ tool: 't', tokens: 1 }, 400, 'action');
      await expectRefused({ tool: 't', action: 'a' }, 400, 'tokens');
      await expectRefused({ ...valid, tool: '' }, 400, 'tool');
      await expectRefused({ ...valid, tool: 'x'.repeat(101) }, 400, 'tool');
      await expectRefused({ ...valid, action: '   ' }, 400, 'action');
      await expectRefused({ ...valid, action: 'a\u0000b' }, 400, 'action');
      await expectRefused({ ...valid, timeline: [{ ...entry, action: '' }] }, 400, 'timeline.0.action');
    });

    it('unknown fields, at the top and in timeline entries', async () => {
      await expectRefused({ ...valid, status: 'completed' }, 400, 'status');
      await expectRefused({ ...valid, Tool: 'x' }, 400, 'Tool');
      await expectRefused({ ...valid, timeline: [{ ...entry, extra: 1 }] }, 400, 'timeline.0.extra');
    });

    it('bad timestamps', async () => {
      for (const timestamp of [
        'yesterday',
        '2026-02-30T00:00:00.000Z',
        '2026-11-01T24:00:00.000Z',
        '2026-11-01',
        '2026-11-01T10:00:00',
        '9999-12-31T23:30:00-01:00',
        '',
        1793491200000,
      ]) {
        await expectRefused(
          { ...valid, timeline: [entry, { ...entry, timestamp, tokens: 0 }] },
          400,
          'timeline.1.timestamp',
        );
      }
    });

    it('an organization the caller is not a member of, or that does not exist', async () => {
      const snapshot = await snapshotDatabase(ctx.db);
      for (const organization_id of [outsiderOrgId, 'org_01JZZZZZZZZZZZZZZZZZZZZZZZ']) {
        const response = await ctx.request({
          method: 'POST',
          url: '/v1/scans',
          payload: { ...valid, organization_id },
        });
        const { details } = expectError(response, 404, 'not_found');
        expect(details.map((d) => d.field)).toEqual(['organization_id']);
      }
      // The outsider's own organization works for the outsider.
      expect(await snapshotDatabase(ctx.db)).toEqual(snapshot);
      const scan = await submitScan(ctx, { ...valid, organization_id: outsiderOrgId }, outsider);
      expect(scan.organization_id).toBe(outsiderOrgId);
    });

    it('no token, or not JSON', async () => {
      const snapshot = await snapshotDatabase(ctx.db);
      expectError(
        await ctx.request({ method: 'POST', url: '/v1/scans', payload: valid, as: null }),
        401,
        'unauthorized',
      );
      expectError(
        await ctx.request({
          method: 'POST',
          url: '/v1/scans',
          payload: '{"tool":',
          headers: { 'content-type': 'application/json' },
        }),
        400,
        'invalid_json',
      );
      expect(await snapshotDatabase(ctx.db)).toEqual(snapshot);
    });
  });
});

// Its own context: a 100,000-entry timeline would make every snapshot above slow.
describe('scans routes: the largest timeline', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext();
  });
  afterAll(async () => {
    await ctx.close();
  });

  it('accepts exactly 100,000 timeline entries (over the 1 MiB JSON limit)', async () => {
    const base = Date.parse('2026-11-01T00:00:00.000Z');
    const timeline = Array.from({ length: 100_000 }, (_, i) => ({
      timestamp: new Date(base + i * 1000).toISOString(),
      action: i % 2 === 0 ? 'a-fairly-long-action-name-to-grow-the-body' : 'read',
      tokens: i % 7,
    }));
    const tokens = timeline.reduce((sum, e) => sum + e.tokens, 0);
    const response = await ctx.request({
      method: 'POST',
      url: '/v1/scans',
      payload: { tool: 't', action: 'bulk', tokens, timeline },
    });
    expect(response.statusCode, response.body.slice(0, 500)).toBe(201);
    const id = (response.json() as Scan).id;
    const evidence = await ctx.request({ method: 'GET', url: `/v1/scans/${id}/evidence?types=violations` });
    expect(evidence.json()).toEqual({
      scan_id: id,
      evidence: { request_count: 100_000, total_tokens: tokens, violations: [] },
    });
  });
});
