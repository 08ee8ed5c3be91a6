/**
 * A team server: several `scandesk serve` processes on one PostgreSQL database, under concurrent
 * clients that race on purpose (the same team name on both servers, the same package imported
 * on both, two owners demoting each other). Every lost race is a 409 or a retried transaction,
 * never a 500; afterwards both servers answer every total alike, each user's total equals a
 * recount of the visibility rule, and the rollups equal a recount of the rows. PostgreSQL only:
 * SQLite is one process's store.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/main/db/database';
import { openPostgres } from '../../src/main/db/postgres/postgres-connection';
import type { ImportResult } from '../../src/shared/api/evidence';
import { errorShapeProblem, http, makeRng, testSeed, type HttpResult } from '../helpers/reliability';
import { cleanupProcesses, makeTempDir, startServe, type ServeProcess } from '../helpers/serve-process';
import { rollupProblems, storeInvariants } from '../helpers/store-checks';
import { newTestDatabase, onPostgres, shareTestDatabase } from '../helpers/test-database';
import { oneScanPackage } from '../helpers/import-fixtures';

const SERVERS = 3;
const CLIENTS = 24;
const ROUNDS = 12;
const TOKEN = 'sdt_multi-process-owner-token-0123456789';

let servers: ServeProcess[] = [];
let db: Db;
const users: { id: string; token: string }[] = [];
const orgs: string[] = [];

const seed = testSeed('multi-process');

const parsed = <T>(result: HttpResult): T => JSON.parse(result.text) as T;

describe.runIf(onPostgres)(`${SERVERS} server processes on one PostgreSQL database`, () => {
  beforeAll(async () => {
    const url = await newTestDatabase();
    db = openPostgres(url, { poolSize: 2 });
    const dataDirs = Array.from({ length: SERVERS }, () => makeTempDir());
    for (const dataDir of dataDirs) {
      shareTestDatabase(dataDir, url);
      // The server that creates the owner writes this same token; the others find the owner made.
      writeFileSync(join(dataDir, 'token'), `${TOKEN}\n`, { mode: 0o600 });
    }
    // All at once on the empty database: migrations and the first owner race too.
    servers = await Promise.all(
      dataDirs.map((dataDir) =>
        startServe({ dataDir, args: ['--log-level', 'warn'], env: { SCANDESK_TOKEN: TOKEN }, startTimeoutMs: 30_000 }),
      ),
    );
  }, 60_000);
  afterAll(async () => {
    await db?.destroy();
    await cleanupProcesses();
  });

  it('created one workspace owner, whichever server started first', async () => {
    const owners = await db.selectFrom('users').select('id').where('is_workspace_owner', '=', 1).execute();
    expect(owners).toHaveLength(1);
    for (const server of servers) expect((await http(server.url, TOKEN, 'GET', '/v1/me')).status).toBe(200);
  });

  it('keeps every rule across processes under racing clients, and all servers agree afterwards', async () => {
    const rng = makeRng(seed);
    const on = (): ServeProcess => rng.pick(servers);
    for (const name of ['ana', 'ben', 'cy']) {
      const created = await http(on().url, TOKEN, 'POST', '/v1/users', { name });
      expect(created.status, created.text).toBe(201);
      const body = parsed<{ user: { id: string }; token: string }>(created);
      users.push({ id: body.user.id, token: body.token });
    }
    for (const name of ['North', 'South']) {
      const org = await http(on().url, TOKEN, 'POST', '/v1/organizations', { name });
      expect(org.status, org.text).toBe(201);
      orgs.push(parsed<{ id: string }>(org).id);
    }
    const [ana, ben] = users;
    // ana co-owns North (so the two owners can try to demote each other); ben is an admin of South.
    for (const [org, user, role] of [
      [orgs[0]!, ana!.id, 'owner'],
      [orgs[1]!, ben!.id, 'admin'],
    ] as const) {
      const put = await http(on().url, TOKEN, 'PUT', `/v1/organizations/${org}/members/${user}`, { role });
      expect(put.status, put.text).toBe(200);
    }
    const policy = await http(on().url, TOKEN, 'PUT', `/v1/organizations/${orgs[0]}/policy`, {
      max_tokens_per_scan: 300,
      max_tokens_per_request: null,
      allowed_tools: null,
      blocked_tools: ['curl'],
      blocked_actions: [],
    });
    expect(policy.status, policy.text).toBe(200);

    const callers = [{ id: '', token: TOKEN }, ...users];
    const problems: string[] = [];
    const acknowledged = new Map<string, string>(); // scan id → submitter token
    const teamCreated = new Map<string, number>();
    const imports = new Map<string, ImportResult[]>();
    const statuses = new Map<string, number>();
    const check = (what: string, result: HttpResult, ok: number[]): boolean => {
      const key = `${what.split(' ')[0]} ${result.status}`;
      statuses.set(key, (statuses.get(key) ?? 0) + 1);
      const shape = errorShapeProblem(result.status, result.contentType, result.text);
      if (result.status >= 500 || (result.status >= 400 && shape))
        problems.push(`${what}: ${result.status} ${result.text}`);
      else if (!ok.includes(result.status) && result.status !== 409)
        problems.push(`${what}: ${result.status} ${result.text}`);
      return ok.includes(result.status);
    };

    const client = async (index: number): Promise<void> => {
      for (let round = 0; round < ROUNDS; round++) {
        const roll = rng.next();
        if (roll < 0.6) {
          const caller = rng.pick(callers);
          const organization = caller.token === TOKEN ? rng.pick([null, ...orgs]) : null;
          const result = await http(on().url, caller.token, 'POST', '/v1/scans', {
            tool: rng.pick(['claude-code', 'cursor', 'curl']),
            action: rng.pick(['edit', 'read']),
            tokens: 1 + rng.int(500),
            ...(organization ? { organization_id: organization } : {}),
          });
          if (check('submit', result, [201])) acknowledged.set(parsed<{ id: string }>(result).id, caller.token);
        } else if (roll < 0.75) {
          // Every client of a round asks for the same team name, on whichever server.
          const name = `Racers ${round}`;
          const result = await http(on().url, TOKEN, 'POST', `/v1/organizations/${orgs[1]}/teams`, { name });
          if (check('team', result, [201])) teamCreated.set(name, (teamCreated.get(name) ?? 0) + 1);
        } else if (roll < 0.9) {
          const id = `scan_shared_${round % 4}`;
          const result = await http(on().url, TOKEN, 'POST', '/v1/evidence/imports', oneScanPackage(id));
          // One user's clients exceed the import caps (2 at once per server): 429 is a contract answer.
          if (check('import', result, [200, 201, 429]) && result.status !== 429) {
            imports.set(id, [...(imports.get(id) ?? []), parsed(result)]);
          }
        } else {
          // The two owners of North demote each other: one of them must stay owner.
          const [caller, target] = rng.next() < 0.5 ? [TOKEN, ana!.id] : [ana!.token, await ownerId()];
          const result = await http(on().url, caller, 'PUT', `/v1/organizations/${orgs[0]}/members/${target}`, {
            role: 'member',
          });
          check(`demote ${index}`, result, [200, 403]);
        }
      }
    };
    await Promise.all(Array.from({ length: CLIENTS }, (_, index) => client(index)));
    console.log(`[multi-process] seed ${seed}; responses: ${JSON.stringify(Object.fromEntries(statuses))}`);
    expect(problems.slice(0, 10)).toEqual([]);
    // The races happened: names asked for more than once, packages imported more than once.
    expect(statuses.get('team 409') ?? 0).toBeGreaterThan(0);
    expect([...imports.values()].some((results) => results.length > 1)).toBe(true);

    for (const [name, created] of teamCreated) expect(created, name).toBe(1);
    const teams = await db.selectFrom('teams').select(['name']).where('organization_id', '=', orgs[1]!).execute();
    expect(new Set(teams.map((team) => team.name)).size).toBe(teams.length);
    for (const [id, results] of imports) {
      expect(
        results.filter((result) => result.imported.length === 1),
        id,
      ).toHaveLength(1);
      expect(
        results.every((result) => result.imported.length + result.unchanged.length === 1),
        id,
      ).toBe(true);
    }
    const northOwners = await db
      .selectFrom('memberships')
      .select('user_id')
      .where('organization_id', '=', orgs[0]!)
      .where('role', '=', 'owner')
      .execute();
    expect(northOwners.length).toBeGreaterThanOrEqual(1);

    // Every acknowledged scan is stored; the rollups add up.
    const stored = await db.selectFrom('scans').select('id').execute();
    const storedIds = new Set(stored.map((row) => row.id));
    for (const id of acknowledged.keys()) expect(storedIds.has(id), id).toBe(true);
    expect(rollupProblems(await storeInvariants(db))).toEqual([]);

    // Each user's total, from every server, equals a recount of the visibility rule (docs/contract/auth.md#visibility).
    for (const caller of callers) {
      const me = parsed<{ id: string }>(await http(servers[0]!.url, caller.token, 'GET', '/v1/me'));
      const recount = await sql<{ n: number }>`
        SELECT count(*) AS n FROM scans WHERE submitted_by = ${me.id} OR organization_id IN (
          SELECT organization_id FROM memberships WHERE user_id = ${me.id} AND role IN ('owner', 'admin'))`.execute(db);
      for (const server of servers) {
        const list = await http(server.url, caller.token, 'GET', '/v1/scans?limit=1');
        expect(list.status, list.text).toBe(200);
        expect(parsed<{ total: number }>(list).total, `${me.id} on ${server.url}`).toBe(Number(recount.rows[0]!.n));
      }
    }
    for (const server of servers) expect(server.stderr()).not.toMatch(/request failed/);
  }, 120_000);
});

async function ownerId(): Promise<string> {
  const owner = await db.selectFrom('users').select('id').where('is_workspace_owner', '=', 1).executeTakeFirstOrThrow();
  return owner.id;
}
