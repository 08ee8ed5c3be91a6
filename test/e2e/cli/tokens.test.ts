/**
 * `scandesk token list|create|revoke|rotate` through a real server, and `token --rotate --user`
 * on the data directory's store; the owner's own `token [--rotate]` is in cli.test.ts.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreatedToken, TokenList } from '../../../src/shared/api/tokens';
import type { CreatedUser } from '../../../src/shared/api/users';
import { expectExit, expectUsage, lines } from '../../helpers/cli-output';
import { cleanupProcesses, makeTempDir, runCli, startServe, type ServeProcess } from '../../helpers/serve-process';

const TOKEN = /^sdt_[A-Za-z0-9_-]{43}$/;

describe('scandesk token: other users, through the API and the store', () => {
  let server: ServeProcess;
  let alice: { id: string; token: string };
  let bob: { id: string; token: string };

  const api = async (token: string, method: string, path: string, body?: unknown) => {
    const response = await fetch(`${server.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : null,
    });
    return { status: response.status, body: (await response.text()) || 'null' };
  };
  const newUser = async (name: string) => {
    const created = JSON.parse((await api(server.token, 'POST', '/v1/users', { name })).body) as CreatedUser;
    return { id: created.user.id, token: created.token };
  };
  const as = (token: string) => ['--url', server.url, '--token', token];
  const works = async (token: string) => (await api(token, 'GET', '/v1/me')).status === 200;

  beforeAll(async () => {
    server = await startServe({ dataDir: join(makeTempDir(), 'data') });
    alice = await newUser('Alice');
    bob = await newUser('Bob');
  });
  afterAll(cleanupProcesses);

  it("lists the caller's own tokens, and with --user another user's for the owner only", async () => {
    const [own, owners, refused] = await Promise.all([
      runCli(['token', 'list', '--json', ...as(alice.token)]),
      runCli(['token', 'list', '--user', alice.id, ...as(server.token)]),
      runCli(['token', 'list', '--user', bob.id, ...as(alice.token)]),
    ]);
    expectExit(own, 0);
    const { tokens } = JSON.parse(own.stdout) as TokenList;
    expect(tokens).toHaveLength(1);
    expect(tokens[0]).toMatchObject({ user_id: alice.id, hint: `sdt_…${alice.token.slice(-4)}` });
    expect(own.stdout).not.toContain(alice.token);

    expectExit(owners, 0);
    const [header, row] = lines(owners.stdout);
    expect(header?.split(/ {2,}/)).toEqual(['ID', 'HINT', 'CREATED', 'LAST USED']);
    expect(row?.split(/ {2,}/)[0]).toBe(tokens[0]!.id);

    expectExit(refused, 1);
    expect(refused.stderr).toMatch(/\(403 forbidden\)/);
  });

  it("create prints a new working token alone on stdout; revoke ends it; another user's token is not found", async () => {
    const created = await runCli(['token', 'create', ...as(alice.token)]);
    expectExit(created, 0);
    const token = created.stdout.trim();
    expect(created.stdout).toBe(`${token}\n`);
    expect(token).toMatch(TOKEN);
    expect(await works(token)).toBe(true);

    const { tokens } = JSON.parse((await api(alice.token, 'GET', `/v1/users/${alice.id}/tokens`)).body) as TokenList;
    const id = tokens.find((t) => t.hint === `sdt_…${token.slice(-4)}`)!.id;
    const byBob = await runCli(['token', 'revoke', id, ...as(bob.token)]);
    expectExit(byBob, 1);
    expect(byBob.stderr).toMatch(/\(404 not_found\)/);
    expect(await works(token)).toBe(true);

    const revoked = await runCli(['token', 'revoke', id, ...as(alice.token)]);
    expectExit(revoked, 0);
    expect(revoked.stdout).toBe(`revoked ${id}\n`);
    expect(await works(token)).toBe(false);
    expect(await works(alice.token)).toBe(true);
  });

  it("rotate --user, by the owner, replaces all of that user's tokens and leaves the token file alone", async () => {
    const extra = JSON.parse((await api(bob.token, 'POST', `/v1/users/${bob.id}/tokens`)).body) as CreatedToken;
    const rotated = await runCli(['token', 'rotate', '--user', bob.id, '--json', ...as(server.token)]);
    expectExit(rotated, 0);
    const body = JSON.parse(rotated.stdout) as CreatedToken;
    expect(body).toMatchObject({ user_id: bob.id, token: expect.stringMatching(TOKEN) });
    expect(await works(bob.token)).toBe(false);
    expect(await works(extra.token)).toBe(false);
    expect(await works(body.token)).toBe(true);
    expect(readFileSync(join(server.dataDir, 'token'), 'utf8').trim()).toBe(server.token);
    bob = { ...bob, token: body.token };
  });

  it("token --rotate --user on the data directory rotates that user's tokens and prints the new one", async () => {
    const rotated = await runCli(['token', '--rotate', '--user', alice.id, '--data-dir', server.dataDir]);
    expectExit(rotated, 0);
    const token = rotated.stdout.trim();
    expect(token).toMatch(TOKEN);
    expect(await works(alice.token)).toBe(false);
    expect(await works(token)).toBe(true);
    expect(readFileSync(join(server.dataDir, 'token'), 'utf8').trim()).toBe(server.token);
    expect(await works(server.token)).toBe(true);
  });

  it('refuses what it cannot mean, before looking for a token', async () => {
    const [unknown, noId, userWithoutRotate] = await Promise.all([
      runCli(['token', 'forget']),
      runCli(['token', 'revoke']),
      runCli(['token', '--user', alice.id]),
    ]);
    expectUsage(unknown, /unknown action "forget"/);
    expectUsage(noId, /give one TOKEN_ID/);
    expectUsage(userWithoutRotate, /--user needs --rotate/);
  });
});
