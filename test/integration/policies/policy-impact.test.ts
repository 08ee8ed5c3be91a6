/**
 * Policy what-if and re-evaluation: a preview equals a brute-force evaluation of every stored
 * scan with the same engine, and writes nothing; re-evaluation writes exactly what the preview
 * said, keeps the rollups exact, is all or nothing, and is refused to members.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Policy, PolicyComparison, PolicyImpact } from '../../../src/shared/api/policies';
import { evaluatePolicy } from '../../../src/shared/policy/evaluate-policy';
import { dialectOf } from '../../../src/main/db/dialect';
import { expectError } from '../../helpers/assertions';
import { createOrg, setRole, submitScan } from '../../helpers/scan-fixtures';
import { rollupProblems, storeInvariants } from '../../helpers/store-checks';
import { createTestContext, type TestContext, type TestUser } from '../../helpers/test-app';
import { entriesWithScan } from '../../helpers/timeline-rows';

const SINCE = '2000-01-01T00:00:00Z';
const UNTIL = '2000-12-31T00:00:00Z';
const TOOLS = ['ChatGPT', 'Claude', 'Cursor', 'KILL-bot', 'copilot'];
const ACTIONS = ['edit', 'read', 'Deploy.Prod', 'shell', 'ÉMILE'];

/** A seeded generator: the same store and policies every run. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 4294967296;
  };
}

function randomPolicy(next: () => number): Policy {
  const some = (names: string[]) => names.filter(() => next() < 0.3).map((n) => (next() < 0.5 ? n.toLowerCase() : n));
  return {
    max_tokens_per_scan: next() < 0.5 ? null : Math.floor(next() * 3000),
    max_tokens_per_request: next() < 0.5 ? null : Math.floor(next() * 400),
    allowed_tools: next() < 0.6 ? null : some(TOOLS),
    blocked_tools: some(TOOLS),
    blocked_actions: some(ACTIONS),
  };
}

function parseStream(body: string): {
  progress: { done: number; total: number }[];
  result?: PolicyComparison;
  error?: unknown;
} {
  const lines = body
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
  return {
    progress: lines.filter((l) => l.progress).map((l) => l.progress as { done: number; total: number }),
    result: lines.at(-1)?.result as PolicyComparison | undefined,
    error: lines.at(-1)?.error,
  };
}

describe('policy preview and re-evaluation', () => {
  let ctx: TestContext;
  let member: TestUser;
  let orgId: string;
  const SCANS = 150;

  beforeAll(async () => {
    ctx = await createTestContext();
    member = await ctx.createUser('member');
    orgId = await createOrg(ctx, 'Acme');
    await setRole(ctx, orgId, member, 'member');
    await ctx.request({
      method: 'PUT',
      url: `/v1/organizations/${orgId}/policy`,
      payload: { ...randomPolicy(random(1)), blocked_actions: ['shell'] },
    });
    const next = random(2);
    for (let n = 0; n < SCANS; n++) {
      const timeline = Array.from({ length: 1 + Math.floor(next() * 6) }, (_, i) => ({
        timestamp: new Date(Date.now() - 60_000 + i).toISOString(),
        action: ACTIONS[Math.floor(next() * ACTIONS.length)]!,
        tokens: Math.floor(next() * 500),
      }));
      await submitScan(ctx, {
        tool: TOOLS[Math.floor(next() * TOOLS.length)]!,
        action: 'session',
        tokens: timeline.reduce((sum, e) => sum + e.tokens, 0),
        organization_id: orgId,
        timeline,
      });
    }
    // The scans were stored now; the range must hold them.
  });
  afterAll(async () => {
    await ctx.close();
  });

  const range = () => ({
    since: new Date(Date.now() - 3_600_000).toISOString(),
    until: new Date(Date.now() + 60_000).toISOString(),
  });

  async function post(path: string, payload: object, as?: TestUser) {
    return ctx.request({ method: 'POST', url: `/v1/organizations/${orgId}/policy/${path}`, payload, as });
  }

  /** The brute force: every submitted scan of the organization through the engine, and what is stored. */
  async function recount(policy: Policy): Promise<{ current: PolicyImpact; policy: PolicyImpact }> {
    const scans = await ctx.db.selectFrom('scans').selectAll().where('organization_id', '=', orgId).execute();
    const tallyOf = (all: { rule: string; severity: string }[][]): PolicyImpact => {
      const impact: PolicyImpact = { flagged_scans: 0, violations: 0, by_rule: {}, by_severity: {} };
      for (const findings of all.filter((f) => f.length > 0)) {
        impact.flagged_scans += 1;
        impact.violations += findings.length;
        for (const f of findings) {
          impact.by_rule[f.rule] = (impact.by_rule[f.rule] ?? 0) + 1;
          impact.by_severity[f.severity] = (impact.by_severity[f.severity] ?? 0) + 1;
        }
      }
      return impact;
    };
    const drafts = [];
    const stored = [];
    for (const scan of scans) {
      const timeline = await entriesWithScan(ctx.db).where('scan_id', '=', scan.id).orderBy('seq').execute();
      drafts.push(evaluatePolicy(policy, { tool: scan.tool, tokens: Number(scan.tokens), timeline }));
      stored.push(
        await ctx.db.selectFrom('violations').select(['rule', 'severity']).where('scan_id', '=', scan.id).execute(),
      );
    }
    return { current: tallyOf(stored), policy: tallyOf(drafts) };
  }

  const violationIds = async () =>
    (await ctx.db.selectFrom('violations').select('id').orderBy('id').execute()).map((row) => row.id);

  it('previews exactly what the engine says over every stored scan, and writes nothing', async () => {
    const next = random(3);
    const before = await violationIds();
    for (let round = 0; round < 5; round++) {
      const policy = randomPolicy(next);
      const response = await post('preview', { policy, ...range() });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.headers['content-type']).toBe('application/x-ndjson; charset=utf-8');
      const { progress, result } = parseStream(response.body);
      expect(progress.at(-1)).toEqual({ done: SCANS, total: SCANS });
      expect(result!.scanned).toBe(SCANS);
      const expected = await recount(policy);
      expect(result!.current).toEqual(expected.current);
      expect(result!.policy).toEqual(expected.policy);
    }
    expect(await violationIds()).toEqual(before);
  });

  it('re-evaluates with the saved policy exactly as previewed, keeping the rollups exact', async () => {
    const policy: Policy = {
      ...randomPolicy(random(4)),
      blocked_actions: ['deploy.prod', 'émile'],
      max_tokens_per_request: 250,
    };
    expect(
      (await ctx.request({ method: 'PUT', url: `/v1/organizations/${orgId}/policy`, payload: policy })).statusCode,
    ).toBe(200);
    const preview = parseStream((await post('preview', { policy, ...range() })).body).result!;
    expect(preview.changed_scans).toBeGreaterThan(0);

    const response = await post('reevaluate', range());
    expect(response.statusCode, response.body).toBe(200);
    const done = parseStream(response.body).result!;
    expect(done).toEqual(preview);

    const after = parseStream((await post('preview', { policy, ...range() })).body).result!;
    expect(after.changed_scans).toBe(0);
    expect(after.current).toEqual(preview.policy);
    expect(rollupProblems(await storeInvariants(ctx.db))).toEqual([]);
    // The scans' own counts follow their violations.
    const { rows } = await sql<{ n: number }>`
      SELECT count(*) AS n FROM scans s
      WHERE s.violation_count <> (SELECT count(*) FROM violations v WHERE v.scan_id = s.id)`.execute(ctx.db);
    expect(Number(rows[0]!.n)).toBe(0);
  });

  it('is all or nothing: a failure midway leaves every violation as it was', async () => {
    await ctx.request({
      method: 'PUT',
      url: `/v1/organizations/${orgId}/policy`,
      payload: { ...randomPolicy(random(5)), blocked_tools: ['claude'], max_tokens_per_scan: 100 },
    });
    const before = await violationIds();
    const postgres = dialectOf(ctx.db) === 'postgres';
    // A trigger that refuses the third violation row written: some scans are rewritten by then.
    if (postgres) {
      await sql`CREATE SEQUENCE inject_seq`.execute(ctx.db);
      await sql`CREATE FUNCTION inject_fail() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN IF nextval('inject_seq') = 3 THEN RAISE EXCEPTION 'injected failure'; END IF; RETURN NEW; END $$`.execute(
        ctx.db,
      );
      await sql`CREATE TRIGGER inject BEFORE INSERT ON violations FOR EACH ROW EXECUTE FUNCTION inject_fail()`.execute(
        ctx.db,
      );
    } else {
      await sql`CREATE TABLE inject_count (n integer)`.execute(ctx.db);
      await sql`INSERT INTO inject_count VALUES (0)`.execute(ctx.db);
      await sql`CREATE TRIGGER inject BEFORE INSERT ON violations BEGIN
        UPDATE inject_count SET n = n + 1;
        SELECT RAISE(ABORT, 'injected failure') WHERE (SELECT n FROM inject_count) = 3;
      END`.execute(ctx.db);
    }
    try {
      const response = await post('reevaluate', range());
      expect(response.statusCode).toBe(200);
      expect(parseStream(response.body).error).toMatchObject({ code: 'internal', status: 500 });
      expect(await violationIds()).toEqual(before);
      expect(rollupProblems(await storeInvariants(ctx.db))).toEqual([]);
    } finally {
      await sql`DROP TRIGGER inject ${postgres ? sql`ON violations` : sql``}`.execute(ctx.db);
      if (postgres) {
        await sql`DROP FUNCTION inject_fail()`.execute(ctx.db);
        await sql`DROP SEQUENCE inject_seq`.execute(ctx.db);
      } else {
        await sql`DROP TABLE inject_count`.execute(ctx.db);
      }
    }
  });

  it('takes a day as until for that whole UTC day: since and until the same day is that day', async () => {
    const stored = await ctx.db.selectFrom('scans').select('created_at').where('organization_id', '=', orgId).execute();
    const day = new Date(Number(stored[0]!.created_at)).toISOString().slice(0, 10);
    const onDay = stored.filter((scan) => new Date(Number(scan.created_at)).toISOString().startsWith(day)).length;
    const response = await post('preview', { policy: randomPolicy(random(5)), since: day, until: day });
    expect(response.statusCode, response.body).toBe(200);
    expect(parseStream(response.body).result!.scanned).toBe(onDay);
    expect(onDay).toBeGreaterThan(0);
  });

  it('refuses members, bad ranges and unknown organizations before answering', async () => {
    expectError(await post('preview', { policy: randomPolicy(random(6)), ...range() }, member), 403, 'forbidden');
    expectError(await post('reevaluate', range(), member), 403, 'forbidden');
    const backwards = { since: range().until, until: range().since };
    expect(expectError(await post('reevaluate', backwards), 400, 'validation_failed').details[0]!.field).toBe('until');
    expect(
      expectError(await post('reevaluate', { since: SINCE, until: '2002-01-01T00:00:00Z' }), 400, 'validation_failed')
        .message,
    ).toMatch(/366 days/);
    expectError(
      await ctx.request({
        method: 'POST',
        url: '/v1/organizations/org_nope/policy/reevaluate',
        payload: { since: SINCE, until: UNTIL },
      }),
      404,
      'not_found',
    );
  });
});
