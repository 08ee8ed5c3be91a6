/**
 * Policy previews and re-evaluations over long timelines, through a real socket: they answer
 * exactly as the engine does over whole timelines while /healthz keeps answering, one runs per
 * organization at a time (409 for another, also one claimed by another server process), a client
 * that goes away stops its run and frees the organization, and a re-evaluation lets other writers
 * in while it runs, shows readers all of it or none, and writes nothing when stopped.
 */
import { request as httpRequest, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Policy, PolicyComparison, PolicyImpact } from '../../../src/shared/api/policies';
import { EMPTY_POLICY } from '../../../src/shared/api/policies';
import { evaluatePolicy } from '../../../src/shared/policy/evaluate-policy';
import { defaultEntry, insertEvidenceScan } from '../../helpers/evidence-fixtures';
import { createOrg } from '../../helpers/scan-fixtures';
import { rollupProblems, storeInvariants } from '../../helpers/store-checks';
import { createTestContext, type TestContext, type TestUser } from '../../helpers/test-app';
import { entriesWithScan } from '../../helpers/timeline-rows';

/** Long enough that a walk over them takes a few hundred steps, and the old single read stalled seconds. */
const SCANS = 4;
const ENTRIES = 100_000;
const YEAR_START = Date.UTC(2025, 0, 1);
const RANGE = { since: '2025-01-01T00:00:00Z', until: '2026-01-01T00:00:00Z' };
const DRAFT: Policy = { ...EMPTY_POLICY, blocked_actions: ['tool.call'], max_tokens_per_request: 3900 };
/** Another policy, so that the last test does not depend on what the one before left. */
const APPLIED: Policy = { ...EMPTY_POLICY, blocked_actions: ['embedding'], max_tokens_per_request: 3950 };

interface Opened {
  status: Promise<number>;
  /** The first line of the answer. */
  firstLine: Promise<string>;
  /** The whole answer. */
  body: Promise<string>;
  abort(): void;
}

describe('policy runs over long timelines', () => {
  let ctx: TestContext;
  let base: string;
  let orgId: string;

  beforeAll(async () => {
    ctx = await createTestContext();
    orgId = await createOrg(ctx, 'Long');
    for (let n = 0; n < SCANS; n++) {
      const id = `scan_LONG${n}`;
      await insertEvidenceScan(ctx.db, { id, submittedBy: ctx.owner.id, entries: ENTRIES });
      // Spread over the year, in the organization.
      await ctx.db
        .updateTable('scans')
        .set({ organization_id: orgId, created_at: YEAR_START + n * 80 * 86_400_000 })
        .where('id', '=', id)
        .execute();
    }
    await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`;
  }, 120_000);
  afterAll(async () => {
    await ctx.close();
  });

  function open(method: string, path: string, payload?: object, as: TestUser = ctx.owner): Opened {
    const req = httpRequest(`${base}${path}`, {
      method,
      headers: { authorization: `Bearer ${as.token}`, 'content-type': 'application/json' },
    });
    const response = new Promise<IncomingMessage>((resolve, reject) => {
      req.on('response', resolve);
      req.on('error', reject);
    });
    req.end(payload ? JSON.stringify(payload) : undefined);
    const opened: Opened = {
      status: response.then((r) => r.statusCode!),
      firstLine: response.then(
        (r) =>
          new Promise((resolve) => {
            let text = '';
            r.setEncoding('utf8').on('data', (chunk: string) => {
              text += chunk;
              if (text.includes('\n')) resolve(text.slice(0, text.indexOf('\n')));
            });
          }),
      ),
      body: response.then(
        (r) =>
          new Promise((resolve, reject) => {
            let text = '';
            r.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
            r.on('end', () => resolve(text));
            r.on('error', reject);
            r.on('aborted', () => reject(new Error('aborted')));
          }),
      ),
      abort: () => req.destroy(),
    };
    // An aborted request's promises reject; a test that aborts does not await them.
    opened.body.catch(() => {});
    opened.firstLine.catch(() => {});
    return opened;
  }

  /** A whole request over the socket (once listening, the server refuses injected requests' host). */
  async function send(method: string, path: string, payload?: object, as: TestUser = ctx.owner) {
    const opened = open(method, path, payload, as);
    const statusCode = await opened.status;
    const body = await opened.body;
    return { statusCode, body, json: () => JSON.parse(body) as unknown };
  }

  const resultOf = (body: string): { result?: PolicyComparison; error?: { code: string; message: string } } =>
    JSON.parse(body.trim().split('\n').at(-1)!) as {
      result?: PolicyComparison;
      error?: { code: string; message: string };
    };

  const claims = async () =>
    ctx.db.selectFrom('policy_runs').selectAll().where('organization_id', '=', orgId).execute();
  const staged = async () =>
    Number(
      (await ctx.db
        .selectFrom('policy_staged_violations')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirst())!.n,
    ) +
    Number(
      (await ctx.db
        .selectFrom('policy_staged_scans')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirst())!.n,
    );

  /** Waits until the organization has no run going; how long that took, in ms. */
  async function released(withinMs: number): Promise<number> {
    const started = performance.now();
    while ((await claims()).length > 0) {
      if (performance.now() - started > withinMs)
        throw new Error(`the run still held the organization after ${withinMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    return performance.now() - started;
  }

  /** The brute force: each scan's whole timeline through the engine at once. */
  async function recount(policy: Policy): Promise<PolicyImpact> {
    const impact: PolicyImpact = { flagged_scans: 0, violations: 0, by_rule: {}, by_severity: {} };
    for (const scan of await ctx.db.selectFrom('scans').selectAll().where('organization_id', '=', orgId).execute()) {
      const timeline = await entriesWithScan(ctx.db).where('scan_id', '=', scan.id).orderBy('seq').execute();
      const findings = evaluatePolicy(policy, { tool: scan.tool, tokens: Number(scan.tokens), timeline });
      if (findings.length > 0) impact.flagged_scans += 1;
      impact.violations += findings.length;
      for (const f of findings) {
        impact.by_rule[f.rule] = (impact.by_rule[f.rule] ?? 0) + 1;
        impact.by_severity[f.severity] = (impact.by_severity[f.severity] ?? 0) + 1;
      }
    }
    return impact;
  }

  it('previews exactly what the engine says over whole timelines, while /healthz keeps answering', async () => {
    const run = open('POST', `/v1/organizations/${orgId}/policy/preview`, { policy: DRAFT, ...RANGE });
    let ended = false;
    void run.body.finally(() => (ended = true));
    let slowest = 0;
    let polls = 0;
    while (!ended) {
      const started = performance.now();
      const health = await fetch(`${base}/healthz`);
      await health.arrayBuffer();
      slowest = Math.max(slowest, performance.now() - started);
      polls += 1;
    }
    expect(await run.status).toBe(200);
    const { result } = resultOf(await run.body);
    expect(result!.scanned).toBe(SCANS);
    expect(result!.policy).toEqual(await recount(DRAFT));
    expect(result!.policy.violations).toBeGreaterThan(SCANS * 10_000);
    expect(polls).toBeGreaterThan(1);
    expect(slowest, `the slowest /healthz of ${polls} took ${slowest.toFixed(0)} ms`).toBeLessThan(1000);
    expect(await claims()).toEqual([]);
  });

  it('refuses a second run of the organization with 409, and a client that goes away stops its run', async () => {
    const first = open('POST', `/v1/organizations/${orgId}/policy/preview`, { policy: DRAFT, ...RANGE });
    expect(await first.status).toBe(200);
    expect(JSON.parse(await first.firstLine)).toEqual({ progress: { done: 0, total: SCANS } });

    for (const [path, payload] of [
      ['preview', { policy: DRAFT, ...RANGE }],
      ['reevaluate', RANGE],
    ] as const) {
      const second = await send('POST', `/v1/organizations/${orgId}/policy/${path}`, payload);
      expect(second.statusCode, second.body).toBe(409);
      expect(second.json()).toMatchObject({
        error: { code: 'conflict', message: expect.stringMatching(/already running/) },
      });
    }

    first.abort();
    // The claim is let go of only once the walk has stopped.
    await released(1000);
    const again = await send('POST', `/v1/organizations/${orgId}/policy/preview`, { policy: EMPTY_POLICY, ...RANGE });
    expect(again.statusCode).toBe(200);
    expect(resultOf(again.body).result!.scanned).toBe(SCANS);
  });

  it('respects a claim another server process holds, and takes over one that stopped beating', async () => {
    await ctx.db
      .insertInto('policy_runs')
      .values({ organization_id: orgId, run_id: 'elsewhere', heartbeat_at: Date.now() })
      .execute();
    const refused = await send('POST', `/v1/organizations/${orgId}/policy/preview`, { policy: EMPTY_POLICY, ...RANGE });
    expect(refused.statusCode).toBe(409);

    // That process died mid-re-evaluation: its claim went stale, its staged rows stayed.
    await ctx.db
      .updateTable('policy_runs')
      .set({ heartbeat_at: Date.now() - 10 * 60_000 })
      .execute();
    await ctx.db
      .insertInto('policy_staged_scans')
      .values({ run_id: 'elsewhere', scan_id: 'scan_LONG0', violation_count: 1, worst_severity: 1 })
      .execute();
    await ctx.db
      .insertInto('policy_staged_violations')
      .values({
        run_id: 'elsewhere',
        scan_id: 'scan_LONG0',
        seq: 0,
        id: 'vio_X',
        rule: 'r',
        severity: 'low',
        message: 'm',
        timeline_index: null,
      })
      .execute();
    const taken = await send('POST', `/v1/organizations/${orgId}/policy/preview`, { policy: EMPTY_POLICY, ...RANGE });
    expect(taken.statusCode).toBe(200);
    expect(resultOf(taken.body).result!.scanned).toBe(SCANS);
    expect(await claims()).toEqual([]);
    expect(await staged()).toBe(0);
  });

  const violationIds = async () =>
    (await ctx.db.selectFrom('violations').select('id').orderBy('id').execute()).map((row) => row.id);

  it('writes nothing when the client of a re-evaluation goes away', async () => {
    expect((await send('PUT', `/v1/organizations/${orgId}/policy`, DRAFT)).statusCode).toBe(200);
    const before = await violationIds();
    const run = open('POST', `/v1/organizations/${orgId}/policy/reevaluate`, RANGE);
    expect(await run.status).toBe(200);
    await run.firstLine;
    run.abort();
    await released(5000);
    expect(await violationIds()).toEqual(before);
    expect(await staged()).toBe(0);
    expect(rollupProblems(await storeInvariants(ctx.db))).toEqual([]);
  });

  it("re-evaluates without holding the writer: another user's submit goes through meanwhile, readers see all or nothing", async () => {
    expect((await send('PUT', `/v1/organizations/${orgId}/policy`, APPLIED)).statusCode).toBe(200);
    const stored = async () =>
      Number(
        (await ctx.db
          .selectFrom('scans')
          .select((eb) => eb.fn.sum<number>('violation_count').as('n'))
          .where('organization_id', '=', orgId)
          .executeTakeFirst())!.n ?? 0,
      );
    const before = await stored();
    const expected = (await recount(APPLIED)).violations;
    expect(expected).not.toBe(before);

    const other = await ctx.createUser('other');
    const run = open('POST', `/v1/organizations/${orgId}/policy/reevaluate`, RANGE);
    let ended = false;
    void run.body.finally(() => (ended = true));
    expect(await run.status).toBe(200);
    await run.firstLine;

    const started = performance.now();
    const submitted = await send(
      'POST',
      '/v1/scans',
      {
        tool: 'cli',
        action: 'edit',
        tokens: 5,
        timeline: [{ timestamp: new Date(defaultEntry(0).timestamp).toISOString(), action: 'edit', tokens: 5 }],
      },
      other,
    );
    const submitMs = performance.now() - started;
    expect(submitted.statusCode, submitted.body).toBe(201);
    expect(ended, 'the submit had to wait for the whole re-evaluation').toBe(false);
    expect(submitMs).toBeLessThan(1000);

    const seen = new Set<number>();
    while (!ended) {
      seen.add(await stored());
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    const { result } = resultOf(await run.body);
    expect(result!.changed_scans).toBe(SCANS);
    expect(result!.policy.violations).toBe(expected);
    seen.add(await stored());
    expect(
      [...seen].every((n) => n === before || n === expected),
      [...seen].join(', '),
    ).toBe(true);
    expect(await stored()).toBe(expected);
    expect(await staged()).toBe(0);
    expect(await claims()).toEqual([]);
    expect(rollupProblems(await storeInvariants(ctx.db))).toEqual([]);
  });
});
