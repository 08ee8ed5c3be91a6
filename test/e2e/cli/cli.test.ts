/**
 * The CLI as a user runs it, `node bin/scandesk.js ...`, against one real server. Independent
 * commands run side by side: each one costs a Node start.
 */
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Organization, OrganizationList } from '../../../src/shared/api/organizations';
import type { Team, TeamList } from '../../../src/shared/api/teams';
import {
  cleanupProcesses,
  makeTempDir,
  runCli,
  startServe,
  type CliResult,
  type EnvOverrides,
  type ServeProcess,
} from '../../helpers/serve-process';
import { closedPort, expectUsage, lines } from '../../helpers/cli-output';

/** Splits an aligned table into its cells. */
function tableRows(stdout: string): string[][] {
  return lines(stdout).map((line) => line.trim().split(/ {2,}/));
}

function expectOk(result: CliResult): void {
  expect(result.code, `stdout:\n${result.stdout}\nstderr:\n${result.stderr}`).toBe(0);
}

/** A server error: exit 1, `error: MESSAGE (STATUS CODE)` then only `  - field: message` lines. */
function expectServerError(result: CliResult, status: number, code: string): { message: string; details: string[] } {
  expect(result.code, result.stderr).toBe(1);
  expect(result.stdout).toBe('');
  const [first = '', ...rest] = lines(result.stderr);
  const match = /^error: (.+) \((\d{3}) ([a-z_]+)\)$/.exec(first);
  expect(match, first).not.toBeNull();
  expect(match?.[2]).toBe(String(status));
  expect(match?.[3]).toBe(code);
  for (const line of rest) expect(line).toMatch(/^ {2}- [a-z_.[\]0-9]+: \S/);
  return { message: match?.[1] ?? '', details: rest };
}

describe('scandesk CLI', () => {
  let server: ServeProcess;
  /** Flags that point a client command at the test server. */
  let at: string[];
  /** The same through the environment. */
  let env: EnvOverrides;

  beforeAll(async () => {
    server = await startServe({ dataDir: join(makeTempDir(), 'data') });
    at = ['--url', server.url, '--token', server.token];
    env = { SCANDESK_URL: server.url, SCANDESK_TOKEN: server.token };
  });

  afterAll(cleanupProcesses);

  it('--help lists every command and exits 0; a command help too', async () => {
    const [help, teamsHelp] = await Promise.all([runCli(['--help']), runCli(['teams', '--help'])]);
    expectOk(help);
    for (const usage of ['scandesk serve', 'scandesk token', 'scandesk orgs list', 'scandesk teams list']) {
      expect(help.stdout).toContain(usage);
    }
    expectOk(teamsHelp);
    expect(teamsHelp.stdout).toMatch(/^scandesk teams list ORG_ID \| create ORG_ID NAME/);
  });

  it('exits 2 on usage errors, before looking for a token', async () => {
    const neverCreated = join(makeTempDir(), 'never');
    // No --url, --token or token file here: the usage error must still win.
    const [unknown, missingName, badFlag, badPort] = await Promise.all([
      runCli(['frobnicate']),
      runCli(['orgs', 'rename', 'org_1']),
      runCli(['orgs', 'list', '--bogus']),
      runCli(['serve', '--port', 'http', '--data-dir', neverCreated]),
    ]);
    expectUsage(unknown, /^error: unknown command "frobnicate"/);
    expectUsage(missingName, /^error: orgs rename: missing NAME/);
    expectUsage(badFlag, /^error: unknown option --bogus \(see scandesk orgs list --help\)$/);
    expectUsage(badPort, /^error: --port must be a number/);
    expect(existsSync(neverCreated), 'a usage error must not create the data directory').toBe(false);
  });

  let acme: Organization;
  let zeta: Organization;

  it('orgs create prints a table, or the API JSON with --json; flags and environment both work', async () => {
    const [table, json] = await Promise.all([
      runCli(['orgs', 'create', 'Zeta Org', ...at]),
      runCli(['orgs', 'create', 'Acme', '--json'], { env }),
    ]);
    expectOk(table);
    const [header, row, ...more] = tableRows(table.stdout);
    expect(header).toEqual(['ID', 'NAME', 'PLAN', 'MEMBERS', 'CREATED']);
    expect(more).toEqual([]);
    expect(row).toEqual([
      expect.stringMatching(/^org_\w+$/),
      'Zeta Org',
      'free',
      '1',
      expect.stringMatching(/^\d{4}-\d\d-\d\dT[\d:.]+Z$/),
    ]);

    expectOk(json);
    acme = JSON.parse(json.stdout) as Organization;
    expect(acme).toEqual({
      id: expect.stringMatching(/^org_\w+$/),
      name: 'Acme',
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      member_count: 1,
      plan: 'free',
    });
    zeta = { id: row?.[0] ?? '', name: 'Zeta Org', created_at: row?.[4] ?? '', member_count: 1, plan: 'free' };
  });

  it('orgs list prints the caller’s organizations sorted by name, as a table or JSON', async () => {
    const [table, json] = await Promise.all([
      runCli(['orgs', 'list', ...at]),
      runCli(['orgs', 'list', '--json', ...at]),
    ]);
    expectOk(table);
    expect(tableRows(table.stdout)).toEqual([
      ['ID', 'NAME', 'ROLE'],
      [acme.id, 'Acme', 'owner'],
      [zeta.id, 'Zeta Org', 'owner'],
    ]);
    expectOk(json);
    expect(JSON.parse(json.stdout) as OrganizationList).toEqual({
      organizations: [
        { id: acme.id, name: 'Acme', role: 'owner' },
        { id: zeta.id, name: 'Zeta Org', role: 'owner' },
      ],
    });
  });

  it('orgs rename renames, as a table or JSON', async () => {
    const [table, json] = await Promise.all([
      runCli(['orgs', 'rename', zeta.id, 'Zeta Renamed', ...at]),
      runCli(['orgs', 'rename', acme.id, '  Acme Corp  ', '--json', ...at]),
    ]);
    expectOk(table);
    expect(tableRows(table.stdout)).toEqual([
      ['ID', 'NAME', 'PLAN', 'MEMBERS', 'CREATED'],
      [zeta.id, 'Zeta Renamed', 'free', '1', zeta.created_at],
    ]);
    expectOk(json);
    expect(JSON.parse(json.stdout) as Organization).toEqual({ ...acme, name: 'Acme Corp' });
  });

  it('teams create and teams list, as tables or JSON; a duplicate name is a conflict', async () => {
    const [table, json] = await Promise.all([
      runCli(['teams', 'create', acme.id, 'Platform', ...at]),
      runCli(['teams', 'create', acme.id, 'Alpha', '--json', ...at]),
    ]);
    expectOk(table);
    const [header, row] = tableRows(table.stdout);
    expect(header).toEqual(['ID', 'NAME', 'ORGANIZATION', 'CREATED']);
    expect(row).toEqual([expect.stringMatching(/^team_\w+$/), 'Platform', acme.id, expect.stringMatching(/Z$/)]);
    const platformId = row?.[0] ?? '';
    expectOk(json);
    const alpha = JSON.parse(json.stdout) as Team;
    expect(alpha).toEqual({
      id: expect.stringMatching(/^team_\w+$/),
      name: 'Alpha',
      organization_id: acme.id,
      member_count: 0,
      created_at: expect.stringMatching(/Z$/),
    });

    const [listTable, listJson, duplicate] = await Promise.all([
      runCli(['teams', 'list', acme.id, ...at]),
      runCli(['teams', 'list', acme.id, '--json', ...at]),
      runCli(['teams', 'create', acme.id, 'platform', ...at]),
    ]);
    expectOk(listTable);
    expect(tableRows(listTable.stdout)).toEqual([
      ['ID', 'NAME', 'MEMBERS'],
      [alpha.id, 'Alpha', '0'],
      [platformId, 'Platform', '0'],
    ]);
    expectOk(listJson);
    expect(JSON.parse(listJson.stdout) as TeamList).toEqual({
      teams: [
        { id: alpha.id, name: 'Alpha', member_count: 0 },
        { id: platformId, name: 'Platform', member_count: 0 },
      ],
    });
    expectServerError(duplicate, 409, 'conflict');
  });

  it('prints server errors as `error: MESSAGE (STATUS CODE)` with detail lines, exit 1', async () => {
    const [emptyName, longName, unknownOrg] = await Promise.all([
      runCli(['orgs', 'create', '', ...at]),
      runCli(['orgs', 'create', 'x'.repeat(101), ...at]),
      runCli(['teams', 'list', 'org_01JZZZZZZZZZZZZZZZZZZZZZZZ', ...at]),
    ]);
    const empty = expectServerError(emptyName, 400, 'validation_failed');
    expect(empty.message).toContain('name');
    expect(empty.details.length).toBeGreaterThan(0);
    expect(empty.details[0]).toMatch(/^ {2}- name: /);

    const long = expectServerError(longName, 400, 'validation_failed');
    expect(long.message).toMatch(/100/);
    expect(long.details).toEqual([expect.stringMatching(/^ {2}- name: .*100/)]);

    expect(expectServerError(unknownOrg, 404, 'not_found').details).toEqual([]);
  });

  it('says in one sentence that it cannot reach an unreachable server, exit 1', async () => {
    const port = await closedPort();
    const [refused, blocked] = await Promise.all([
      runCli(['orgs', 'list', '--url', `http://127.0.0.1:${port}`, '--token', server.token]),
      // Port 1 is also on fetch's list of blocked ports; the message must be the same kind.
      runCli(['orgs', 'list'], { env: { SCANDESK_URL: 'http://127.0.0.1:1', SCANDESK_TOKEN: server.token } }),
    ]);
    for (const [result, url] of [
      [refused, `http://127.0.0.1:${port}`],
      [blocked, 'http://127.0.0.1:1'],
    ] as const) {
      expect(result.code, result.stderr).toBe(1);
      expect(result.stdout).toBe('');
      expect(lines(result.stderr)).toHaveLength(1);
      expect(result.stderr).toMatch(/^error: cannot reach the Scandesk server at /);
      expect(result.stderr).toContain(url);
      expect(result.stderr).not.toMatch(/\n\s+at /);
    }
  });

  it('finds the token in the default data directory (SCANDESK_DATA_DIR) when none is given', async () => {
    const fromDataDir = await runCli(['orgs', 'list', '--json', '--url', server.url], {
      env: { SCANDESK_DATA_DIR: server.dataDir },
    });
    expectOk(fromDataDir);
    expect((JSON.parse(fromDataDir.stdout) as OrganizationList).organizations).toHaveLength(2);
  });

  it('orgs delete deletes (silently with --json); the organization is then gone', async () => {
    const [table, json] = await Promise.all([
      runCli(['orgs', 'delete', zeta.id, ...at]),
      runCli(['orgs', 'delete', acme.id, '--json', ...at]),
    ]);
    expectOk(table);
    expect(table.stdout).toBe(`deleted ${zeta.id}\n`);
    expectOk(json);
    expect(json.stdout).toBe('');

    const [list, again] = await Promise.all([
      runCli(['orgs', 'list', ...at]),
      runCli(['orgs', 'delete', zeta.id, ...at]),
    ]);
    expectOk(list);
    expect(list.stdout).toMatch(/^no organizations; /);
    expectServerError(again, 404, 'not_found');
  });

  // Last: it changes the token every other test uses.
  it('token prints the token; token --rotate issues a new one, and the old one then gets 401', async () => {
    const rotated = await runCli(['token', '--data-dir', server.dataDir, '--rotate']);
    expectOk(rotated);
    const newToken = rotated.stdout.trim();
    expect(rotated.stdout).toBe(`${newToken}\n`);
    expect(newToken).toMatch(/^sdt_[A-Za-z0-9_-]{43,}$/);
    expect(newToken).not.toBe(server.token);
    expect(statSync(join(server.dataDir, 'token')).mode & 0o777).toBe(0o600);

    const [withOld, withNew, printed] = await Promise.all([
      runCli(['orgs', 'list', '--json', '--url', server.url, '--token', server.token]),
      runCli(['orgs', 'list', '--json', '--url', server.url, '--token', newToken]),
      runCli(['token', '--data-dir', server.dataDir]),
    ]);
    expectServerError(withOld, 401, 'unauthorized');
    expectOk(withNew);
    expect(printed.stdout).toBe(`${newToken}\n`);
  });

  it('the server is still up and stops cleanly', async () => {
    expect(await server.stop()).toBe(0);
  });
});
