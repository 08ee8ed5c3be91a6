/**
 * Crash safety of a real `scandesk serve`: under continuous submits from concurrent clients, the
 * process is killed with SIGKILL at a random moment and restarted on the same data directory.
 * Every scan whose 201 a client received must still be there, identical, with its evidence; and
 * the database must be intact. WAL with synchronous=NORMAL promises exactly this for a process
 * crash (only a power cut may lose the last commits), so any loss here is a bug.
 */
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import type { Evidence } from '../../src/shared/api/evidence';
import type { Scan } from '../../src/shared/api/scans';
import { errorShapeProblem, http, makeRng, testSeed } from '../helpers/reliability';
import { cleanupProcesses, makeTempDir, startServe, type ServeProcess } from '../helpers/serve-process';
import { openTestStore, rollupProblems, storeInvariants } from '../helpers/store-checks';
import { onPostgres } from '../helpers/test-database';

const KILLS = 5;
const CLIENTS = 4;
/** Per client and run: the loops stop at the kill anyway; this bounds a run whose kill is late. */
const MAX_SUBMITS_PER_CLIENT = 400;
/** The kill lands somewhere in this window after the clients start. */
const KILL_AFTER_MS = { min: 150, max: 1800 } as const;

interface Submitted {
  body: { tool: string; action: string; tokens: number; timeline?: TimelineEntry[]; organization_id?: string };
  ack: Scan;
}

interface TimelineEntry {
  timestamp: string;
  action: string;
  tokens: number;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

afterAll(cleanupProcesses);

describe('crash safety under SIGKILL', () => {
  it(`keeps every acknowledged scan, intact, across ${KILLS} kills at random moments`, async () => {
    const seed = testSeed('crash-safety');
    const rng = makeRng(seed);
    const dataDir = makeTempDir();
    let server: ServeProcess = await startServe({ launcher: 'node', dataDir, args: ['--log-level', 'warn'] });
    const token = server.token;

    // An organization whose policy turns some submits into scans with violations.
    const org = await http(server.url, token, 'POST', '/v1/organizations', { name: 'Crash Org' });
    expect(org.status, org.text).toBe(201);
    const orgId = (JSON.parse(org.text) as { id: string }).id;
    const policy = await http(server.url, token, 'PUT', `/v1/organizations/${orgId}/policy`, {
      max_tokens_per_scan: 300,
      max_tokens_per_request: 40,
      allowed_tools: null,
      blocked_tools: ['curl'],
      blocked_actions: ['shell'],
    });
    expect(policy.status, policy.text).toBe(200);

    const acknowledged: Submitted[] = [];
    const problems: string[] = [];

    const submitBody = (pick: ReturnType<typeof makeRng>): Submitted['body'] => {
      const tool = pick.pick(['claude-code', 'cursor', 'curl', 'copilot']);
      const withOrg = pick.next() < 0.4;
      if (pick.next() < 0.2)
        return { tool, action: 'edit', tokens: pick.int(100), ...(withOrg ? { organization_id: orgId } : {}) };
      // Now and then a long timeline: a bigger transaction for the kill to land in.
      const length = pick.next() < 0.1 ? 200 + pick.int(800) : 1 + pick.int(8);
      const start = Date.UTC(2026, 10, 1) + pick.int(86_400_000);
      const timeline = Array.from({ length }, (_, i) => ({
        timestamp: new Date(start + i * 1000).toISOString(),
        action: pick.pick(['read', 'edit', 'shell', 'search']),
        tokens: pick.int(60),
      }));
      const tokens = timeline.reduce((sum, entry) => sum + entry.tokens, 0);
      return { tool, action: 'run', tokens, timeline, ...(withOrg ? { organization_id: orgId } : {}) };
    };

    const verify = async (target: ServeProcess, scans: readonly Submitted[]): Promise<void> => {
      // A few at a time: thousands of sequential round trips would dominate the run time.
      for (let start = 0; start < scans.length; start += 16) {
        await Promise.all(
          scans.slice(start, start + 16).map(async ({ body, ack }) => {
            const scan = await http(target.url, token, 'GET', `/v1/scans/${ack.id}`);
            expect(scan.status, `acknowledged scan ${ack.id} is gone: ${scan.text}`).toBe(200);
            expect(JSON.parse(scan.text), `scan ${ack.id} differs from its 201`).toEqual(ack);
            const evidence = await http(target.url, token, 'GET', `/v1/scans/${ack.id}/evidence?types=violations`);
            expect(evidence.status, evidence.text).toBe(200);
            const { evidence: got } = JSON.parse(evidence.text) as Evidence;
            expect(got.request_count, ack.id).toBe(body.timeline?.length ?? 1);
            expect(got.total_tokens, ack.id).toBe(body.tokens);
            expect(got.violations, ack.id).toEqual(ack.violations);
          }),
        );
      }
    };

    let verified = 0;
    for (let run = 1; run <= KILLS; run += 1) {
      const live = server;
      let killed = false;
      const loops = Array.from({ length: CLIENTS }, async (_, client) => {
        const pick = makeRng(seed + run * 100 + client);
        for (let n = 0; n < MAX_SUBMITS_PER_CLIENT && !killed; n += 1) {
          const body = submitBody(pick);
          let response;
          try {
            response = await http(live.url, token, 'POST', '/v1/scans', body);
          } catch {
            // The connection died with the server: this submit was never acknowledged.
            return;
          }
          if (response.status === 201) acknowledged.push({ body, ack: JSON.parse(response.text) as Scan });
          else {
            const shape = errorShapeProblem(response.status, response.contentType, response.text);
            problems.push(`run ${run}: ${response.status} ${response.text.slice(0, 200)}${shape ? ` (${shape})` : ''}`);
          }
        }
      });
      const delay = KILL_AFTER_MS.min + rng.int(KILL_AFTER_MS.max - KILL_AFTER_MS.min);
      await sleep(delay);
      const before = acknowledged.length;
      process.kill(live.serverPid, 'SIGKILL');
      killed = true;
      await live.stop('SIGKILL');
      await Promise.all(loops);
      console.log(
        `[crash-safety] run ${run}: killed after ${delay} ms; ${before - verified} acknowledged before the kill, ${acknowledged.length - before} in flight then`,
      );

      server = await startServe({ launcher: 'node', dataDir, args: ['--log-level', 'warn'] });
      expect(server.token).toBe(token);
      await verify(server, acknowledged.slice(verified));
      verified = acknowledged.length;
    }

    expect(problems).toEqual([]);
    expect(acknowledged.length).toBeGreaterThan(KILLS * CLIENTS);
    expect(acknowledged.some(({ ack }) => ack.violations.length > 0)).toBe(true);

    // Nothing acknowledged is missing, and nothing beyond what was attempted appeared.
    const list = await http(server.url, token, 'GET', '/v1/scans?limit=1');
    const total = (JSON.parse(list.text) as { total: number }).total;
    expect(total).toBeGreaterThanOrEqual(acknowledged.length);
    expect(total).toBeLessThanOrEqual(acknowledged.length + KILLS * CLIENTS);
    // The restarts re-read everything once more, against the final store.
    await verify(server, acknowledged);

    expect(await server.stop('SIGTERM')).toBe(0);
    if (!onPostgres) {
      // SQLite's own checks of the file; PostgreSQL enforces foreign keys on every statement.
      const sqlite = new Database(join(dataDir, 'scandesk.db'), { readonly: true, fileMustExist: true });
      try {
        expect(sqlite.pragma('integrity_check', { simple: true })).toBe('ok');
        expect(sqlite.pragma('foreign_key_check')).toEqual([]);
      } finally {
        sqlite.close();
      }
    }
    // The list's total and the overview's charts come from rollups: they must have committed with the rows.
    const db = await openTestStore(dataDir);
    try {
      expect(rollupProblems(await storeInvariants(db))).toEqual([]);
    } finally {
      await db.destroy();
    }
  }, 90_000);
});
