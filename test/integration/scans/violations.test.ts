/**
 * A scan's violations past the first SCAN_VIOLATIONS_INLINE_MAX: the scan object lists only the
 * first and says so, `/v1/scans/:id/violations` pages through them all in the same order, and the
 * summary and per-entry counts answer without listing them; all with the scan's visibility (404).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Evidence } from '../../../src/shared/api/evidence';
import type { ViolationEntries, ViolationPage, ViolationSummary } from '../../../src/shared/api/scan-violations';
import { SCAN_VIOLATIONS_INLINE_MAX, type Scan, type Violation } from '../../../src/shared/api/scans';
import { expectError, snapshotDatabase } from '../../helpers/assertions';
import { json, postZip, upstreamEvidence } from '../../helpers/import-fixtures';
import { createOrg, putPolicy, setRole, submitScan } from '../../helpers/scan-fixtures';
import { createTestContext, type TestContext, type TestUser } from '../../helpers/test-app';
import { buildZip, unzip } from '../../helpers/zip-builder';

/** `n` entries of one token each, a second apart; every fifth is the blocked action. */
function timeline(n: number) {
  const start = Date.UTC(2026, 10, 20);
  return Array.from({ length: n }, (_, i) => ({
    timestamp: new Date(start + i * 1000).toISOString(),
    action: i % 5 === 0 ? 'shell.exec' : 'code.read',
    tokens: 1,
  }));
}

const scanBody = (n: number, organizationId: string) => ({
  tool: 'agent',
  action: 'session',
  tokens: n,
  organization_id: organizationId,
  timeline: timeline(n),
});

describe('paged violations', () => {
  let ctx: TestContext;
  let admin: TestUser;
  let member: TestUser;
  let outsider: TestUser;
  /** Owner's scan of 2,500 entries: 1 scan limit + 2,500 request limits + 500 blocked actions. */
  let large: Scan;
  let memberScan: Scan;
  let exactlyCap: Scan;
  let overCap: Scan;
  const LARGE_ENTRIES = 2500;
  const LARGE_TOTAL = 1 + LARGE_ENTRIES + LARGE_ENTRIES / 5;

  beforeAll(async () => {
    ctx = await createTestContext();
    admin = await ctx.createUser('admin');
    member = await ctx.createUser('member');
    outsider = await ctx.createUser('outsider');
    const strict = await createOrg(ctx, 'Strict');
    await setRole(ctx, strict, admin, 'admin');
    await setRole(ctx, strict, member, 'member');
    await putPolicy(ctx, strict, {
      max_tokens_per_scan: 0,
      max_tokens_per_request: 0,
      allowed_tools: null,
      blocked_tools: [],
      blocked_actions: ['shell.exec'],
    });
    // Only the per-request limit: one violation per entry, so the count is the entry count.
    const perRequest = await createOrg(ctx, 'Per request');
    await putPolicy(ctx, perRequest, {
      max_tokens_per_scan: null,
      max_tokens_per_request: 0,
      allowed_tools: null,
      blocked_tools: [],
      blocked_actions: [],
    });
    large = await submitScan(ctx, scanBody(LARGE_ENTRIES, strict));
    memberScan = await submitScan(ctx, scanBody(10, strict), member);
    exactlyCap = await submitScan(ctx, scanBody(SCAN_VIOLATIONS_INLINE_MAX, perRequest));
    overCap = await submitScan(ctx, scanBody(SCAN_VIOLATIONS_INLINE_MAX + 1, perRequest));
  }, 60_000);
  afterAll(async () => {
    await ctx.close();
  });

  async function get<T>(url: string, as: TestUser = ctx.owner): Promise<T> {
    const response = await ctx.request({ method: 'GET', url, as });
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as T;
  }

  /** Every violation, as the streamed evidence document lists them. */
  async function allViolations(scanId: string): Promise<Violation[]> {
    const evidence = await get<Evidence>(`/v1/scans/${scanId}/evidence?types=violations`);
    return evidence.evidence.violations!;
  }

  it('caps the scan object at the first violations and says how many there are', async () => {
    const all = await allViolations(large.id);
    expect(all).toHaveLength(LARGE_TOTAL);
    const scan = await get<Scan>(`/v1/scans/${large.id}`);
    expect(scan.violations).toEqual(all.slice(0, SCAN_VIOLATIONS_INLINE_MAX));
    expect(scan.violation_count).toBe(LARGE_TOTAL);
    expect(scan.violations_truncated).toBe(true);
    // The submit's answer is the same scan object.
    expect(large).toEqual(scan);
  });

  it('lists every violation of a scan at the cap, and truncates one over it', async () => {
    const atCap = await get<Scan>(`/v1/scans/${exactlyCap.id}`);
    expect(atCap.violations).toHaveLength(SCAN_VIOLATIONS_INLINE_MAX);
    expect(atCap.violation_count).toBe(SCAN_VIOLATIONS_INLINE_MAX);
    expect(atCap.violations_truncated).toBe(false);
    expect(exactlyCap).toEqual(atCap);

    const over = await get<Scan>(`/v1/scans/${overCap.id}`);
    expect(over.violations).toHaveLength(SCAN_VIOLATIONS_INLINE_MAX);
    expect(over.violation_count).toBe(SCAN_VIOLATIONS_INLINE_MAX + 1);
    expect(over.violations_truncated).toBe(true);
  });

  it('says so for a small scan too, and for one without violations', async () => {
    const small = await get<Scan>(`/v1/scans/${memberScan.id}`);
    expect(small.violations).toHaveLength(1 + 10 + 2);
    expect(small.violation_count).toBe(13);
    expect(small.violations_truncated).toBe(false);
    const clean = await submitScan(ctx, { tool: 'agent', action: 'chat', tokens: 5 });
    expect(clean).toMatchObject({ violations: [], violation_count: 0, violations_truncated: false });
  });

  it('pages through every violation in the scan order', async () => {
    const all = await allViolations(large.id);
    const walked: Violation[] = [];
    for (let offset = 0; ; offset += 700) {
      const page = await get<ViolationPage>(`/v1/scans/${large.id}/violations?offset=${offset}&limit=700`);
      expect(page.total).toBe(LARGE_TOTAL);
      if (page.violations.length === 0) break;
      walked.push(...page.violations);
    }
    expect(walked).toEqual(all);
    expect(new Set(walked.map((v) => v.id)).size).toBe(LARGE_TOTAL);

    const defaults = await get<ViolationPage>(`/v1/scans/${large.id}/violations`);
    expect(defaults.violations).toEqual(all.slice(0, 100));
    const last = await get<ViolationPage>(`/v1/scans/${large.id}/violations?offset=${LARGE_TOTAL - 1}&limit=1000`);
    expect(last.violations).toEqual(all.slice(-1));
    const beyond = await get<ViolationPage>(`/v1/scans/${large.id}/violations?offset=${LARGE_TOTAL}`);
    expect(beyond).toEqual({ total: LARGE_TOTAL, violations: [] });
  });

  it('pages through one rule and severity alone, in the scan order, with its own total', async () => {
    const all = await allViolations(large.id);
    const blocked = all.filter((v) => v.rule === 'action.blocked' && v.severity === 'high');
    const walked: Violation[] = [];
    for (let offset = 0; ; offset += 300) {
      const page = await get<ViolationPage>(
        `/v1/scans/${large.id}/violations?rule=action.blocked&severity=high&offset=${offset}&limit=300`,
      );
      expect(page.total).toBe(LARGE_ENTRIES / 5);
      if (page.violations.length === 0) break;
      walked.push(...page.violations);
    }
    expect(walked).toEqual(blocked);

    const byRule = await get<ViolationPage>(`/v1/scans/${large.id}/violations?rule=tokens.scan_limit`);
    expect(byRule).toEqual({ total: 1, violations: all.filter((v) => v.rule === 'tokens.scan_limit') });
    const bySeverity = await get<ViolationPage>(`/v1/scans/${large.id}/violations?severity=low&limit=5`);
    expect(bySeverity.total).toBe(LARGE_ENTRIES);
    expect(bySeverity.violations).toEqual(all.filter((v) => v.severity === 'low').slice(0, 5));
    // A rule under another severity than it has selects nothing.
    const none = await get<ViolationPage>(`/v1/scans/${large.id}/violations?rule=action.blocked&severity=low`);
    expect(none).toEqual({ total: 0, violations: [] });
    // The scan's visibility holds for a rule's page too.
    const hidden = await ctx.request({
      method: 'GET',
      url: `/v1/scans/${large.id}/violations?rule=action.blocked`,
      as: outsider,
    });
    expectError(hidden, 404, 'not_found');
  });

  it('refuses pages outside the limits, naming the parameter', async () => {
    for (const [query, field] of [
      ['limit=0', 'limit'],
      ['limit=1001', 'limit'],
      ['offset=-1', 'offset'],
      ['offset=x', 'offset'],
      ['after=vio_1', 'after'],
      ['severity=urgent', 'severity'],
    ] as const) {
      const response = await ctx.request({ method: 'GET', url: `/v1/scans/${large.id}/violations?${query}` });
      const error = expectError(response, 400, 'validation_failed');
      expect(JSON.stringify(error.details)).toContain(field);
    }
    const entries = await ctx.request({ method: 'GET', url: `/v1/scans/${large.id}/violations/entries?limit=5001` });
    expectError(entries, 400, 'validation_failed');
  });

  it('counts violations by severity and rule without listing them', async () => {
    const summary = await get<ViolationSummary>(`/v1/scans/${large.id}/violations/summary`);
    expect(summary).toEqual({
      total: LARGE_TOTAL,
      by_severity: { low: LARGE_ENTRIES, medium: 1, high: LARGE_ENTRIES / 5, critical: 0 },
      by_rule: [
        { rule: 'tokens.request_limit', severity: 'low', count: LARGE_ENTRIES },
        { rule: 'action.blocked', severity: 'high', count: LARGE_ENTRIES / 5 },
        { rule: 'tokens.scan_limit', severity: 'medium', count: 1 },
      ],
      with_entry: LARGE_TOTAL - 1,
    });
    const clean = await submitScan(ctx, { tool: 'agent', action: 'chat', tokens: 5 });
    expect(await get<ViolationSummary>(`/v1/scans/${clean.id}/violations/summary`)).toEqual({
      total: 0,
      by_severity: { low: 0, medium: 0, high: 0, critical: 0 },
      by_rule: [],
      with_entry: 0,
    });
  });

  it('counts the violations of each timeline entry in a range', async () => {
    const page = await get<ViolationEntries>(`/v1/scans/${large.id}/violations/entries?offset=998&limit=5`);
    // Entries 998–1002: 1000 is blocked as well as over the limit.
    expect(page.entries).toEqual([
      { index: 998, violations: 1 },
      { index: 999, violations: 1 },
      { index: 1000, violations: 2 },
      { index: 1001, violations: 1 },
      { index: 1002, violations: 1 },
    ]);
    const whole = await get<ViolationEntries>(`/v1/scans/${large.id}/violations/entries?limit=5000`);
    expect(whole.entries).toHaveLength(LARGE_ENTRIES);
    expect(whole.entries.reduce((sum, entry) => sum + entry.violations, 0)).toBe(LARGE_TOTAL - 1);
    const past = await get<ViolationEntries>(`/v1/scans/${large.id}/violations/entries?offset=${LARGE_ENTRIES}`);
    expect(past.entries).toEqual([]);
    const huge = await get<ViolationEntries>(
      `/v1/scans/${large.id}/violations/entries?offset=${Number.MAX_SAFE_INTEGER}&limit=5000`,
    );
    expect(huge.entries).toEqual([]);
  });

  it('answers 404 to whoever cannot see the scan, on every route', async () => {
    const paths = (id: string) => [
      `/v1/scans/${id}/violations`,
      `/v1/scans/${id}/violations/summary`,
      `/v1/scans/${id}/violations/entries`,
    ];
    for (const path of paths(large.id)) {
      // The submitter (owner) and the organization's admin see it; a member and an outsider do not.
      await get(path, ctx.owner);
      await get(path, admin);
      expectError(await ctx.request({ method: 'GET', url: path, as: member }), 404, 'not_found');
      expectError(await ctx.request({ method: 'GET', url: path, as: outsider }), 404, 'not_found');
      expectError(await ctx.request({ method: 'GET', url: path, as: null }), 401, 'unauthorized');
    }
    for (const path of paths(memberScan.id)) {
      await get(path, member);
      expectError(await ctx.request({ method: 'GET', url: path, as: outsider }), 404, 'not_found');
    }
    for (const path of paths('scan_00000000000000000000000000')) {
      expectError(await ctx.request({ method: 'GET', url: path }), 404, 'not_found');
    }
  });

  it('refuses to import a scan object that lists only the first of its violations', async () => {
    const truncated = await get<Scan>(`/v1/scans/${overCap.id}`);
    const evidence = await get<Evidence>(`/v1/scans/${overCap.id}/evidence?types=timeline`);
    const zip = buildZip([
      { name: 'scan.json', data: json({ ...truncated, id: 'upstream_1' }) },
      {
        name: 'evidence.json',
        data: json(upstreamEvidence('upstream_1', evidence.evidence.timeline!)),
      },
    ]);
    const before = await snapshotDatabase(ctx.db);
    const response = await postZip(ctx, zip);
    const error = expectError(response, 400, 'invalid_package');
    expect(error.details[0]).toMatchObject({
      entry: 'scan.json',
      message: expect.stringContaining('violations_truncated'),
    });
    expect(await snapshotDatabase(ctx.db)).toEqual(before);
    // The same object saying it lists them all is imported.
    const whole = buildZip([
      {
        name: 'scan.json',
        data: json({ ...truncated, id: 'upstream_2', violations: [], violation_count: 0, violations_truncated: false }),
      },
      { name: 'evidence.json', data: json(upstreamEvidence('upstream_2', evidence.evidence.timeline!)) },
    ]);
    expect((await postZip(ctx, whole)).statusCode).toBe(201);
  });

  it('keeps every violation in the evidence package', async () => {
    const response = await ctx.request({ method: 'GET', url: `/v1/scans/${large.id}/evidence/download` });
    expect(response.statusCode).toBe(200);
    const files = await unzip(response.rawPayload);
    const scanJson = JSON.parse(files.get(`scans/${large.id}/scan.json`)!.toString('utf8')) as Scan;
    const evidenceJson = JSON.parse(files.get(`scans/${large.id}/evidence.json`)!.toString('utf8')) as Evidence;
    const all = await allViolations(large.id);
    expect(scanJson.violations).toEqual(all);
    expect(scanJson).toMatchObject({ violation_count: LARGE_TOTAL, violations_truncated: false });
    expect(evidenceJson.evidence.violations).toEqual(all);
  });
});
