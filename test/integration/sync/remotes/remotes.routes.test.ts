import { existsSync, readFileSync, statSync } from 'node:fs';
import { createServer as createHttpServer, type RequestListener, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { remoteTokenFile } from '../../../../src/main/sync/remotes/remote-token-file';
import type { Remote, RemoteList, RemoteTestResult } from '../../../../src/shared/api/remotes';
import { startFakeUpstream } from '../../../fixtures/fake-upstream/fake-upstream';
import { expectError } from '../../../helpers/assertions';
import { privateCa, type PrivateCa } from '../../../helpers/private-ca';
import { createTestContext, type TestContext, type TestUser } from '../../../helpers/test-app';

const REMOTE_TOKEN = 'sdt_the-remote-users-secret-0123456789';

/** A remote that answers as a Scandesk server (`feed: true`) or as one of the upstream interface. */
function remoteHandler(feed: boolean): RequestListener {
  return (request, response) => {
    const send = (status: number, value: unknown): void => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(value));
    };
    if (request.headers.authorization !== `Bearer ${REMOTE_TOKEN}`) {
      return send(401, { error: { status: 401, code: 'unauthorized', message: 'no', details: [] } });
    }
    const url = new URL(request.url ?? '/', 'http://x');
    if (url.pathname === '/v1/sync/changes' && feed)
      return send(200, { changes: [], cursor: 'c', more: true, total: 7 });
    if (url.pathname === '/v1/me' && feed) return send(200, { id: 'usr_remote', name: 'me', created_at: 'x' });
    if (url.pathname === '/v1/organizations') {
      return send(200, {
        organizations: [
          { id: 'o1', name: 'Acme', role: 'owner' },
          { id: 'o2', name: 'Beta', role: 'member' },
        ],
      });
    }
    if (url.pathname === '/v1/scans' && url.searchParams.get('limit') === '1')
      return send(200, { scans: [], total: 3 });
    return send(404, { error: { status: 404, code: 'not_found', message: 'no', details: [] } });
  };
}

async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

describe('/v1/remotes (docs/contract/api.md#remotes)', () => {
  let ctx: TestContext;
  let member: TestUser;
  let ca: PrivateCa;
  const servers: Server[] = [];
  const urls = { scandesk: '', upstream: '', https: '', closed: '' };
  const logLines: string[] = [];

  beforeAll(async () => {
    ctx = await createTestContext({ log: { write: (line) => void logLines.push(line), level: 'trace' } });
    member = await ctx.createUser('member');
    ca = privateCa();
    const scandesk = createHttpServer(remoteHandler(true));
    const upstream = createHttpServer(remoteHandler(false));
    const https = createHttpsServer({ key: ca.key, cert: ca.cert }, remoteHandler(true));
    const closed = createHttpServer();
    servers.push(scandesk, upstream, https);
    urls.scandesk = `http://127.0.0.1:${await listen(scandesk)}`;
    urls.upstream = `http://localhost:${await listen(upstream)}/`;
    urls.https = `https://localhost:${await listen(https)}`;
    urls.closed = `http://127.0.0.1:${await listen(closed)}`;
    await new Promise((resolve) => closed.close(resolve));
  });
  afterAll(async () => {
    for (const server of servers) {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
    await ctx.close();
  });

  const add = (payload: Record<string, unknown>, as?: TestUser) =>
    ctx.request({
      method: 'POST',
      url: '/v1/remotes',
      payload: { token: REMOTE_TOKEN, ...payload },
      ...(as ? { as } : {}),
    });
  const remoteRow = (name: string) =>
    ctx.db.selectFrom('remotes').selectAll().where('name', '=', name).executeTakeFirstOrThrow();

  it('adds a remote: 201 with Location, the token in a 0600 file and never in the answer', async () => {
    const response = await add({ name: 'team', url: `${urls.scandesk}/` });
    expect(response.statusCode, response.body).toBe(201);
    expect(response.headers.location).toBe('/v1/remotes/team');
    expect(response.body).not.toContain(REMOTE_TOKEN);
    const remote = response.json() as Remote;
    expect(remote).toMatchObject({
      name: 'team',
      url: urls.scandesk,
      kind: null,
      remote_user_id: null,
      ca_pem: null,
      allow_insecure_http: false,
      background: true,
      interval_minutes: 15,
      last_sync_at: null,
      last_sync: null,
    });
    expect(remote.id).toMatch(/^rmt_/);
    expect(remote.push_since).toBe(remote.created_at);
    const file = remoteTokenFile(ctx.dataDir, remote.id);
    expect(readFileSync(file, 'utf8').trim()).toBe(REMOTE_TOKEN);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect((await remoteRow('team')).user_id).toBe(ctx.owner.id);
  });

  it('lists and reads remotes without their tokens', async () => {
    const list = await ctx.request({ method: 'GET', url: '/v1/remotes' });
    expect(list.statusCode).toBe(200);
    expect((list.json() as RemoteList).remotes.map((r) => r.name)).toContain('team');
    expect(list.body).not.toContain(REMOTE_TOKEN);
    const one = await ctx.request({ method: 'GET', url: '/v1/remotes/team' });
    expect(one.statusCode).toBe(200);
    expect(one.body).not.toContain(REMOTE_TOKEN);
    expectError(await ctx.request({ method: 'GET', url: '/v1/remotes/nobody' }), 404, 'not_found');
  });

  it('answers 403 to anyone but the workspace owner, on every route, and stores nothing', async () => {
    const before = (await ctx.db.selectFrom('remotes').selectAll().execute()).length;
    const requests = [
      { method: 'GET', url: '/v1/remotes' },
      { method: 'POST', url: '/v1/remotes', payload: { name: 'mine', url: urls.scandesk, token: 'x' } },
      { method: 'GET', url: '/v1/remotes/team' },
      { method: 'PATCH', url: '/v1/remotes/team', payload: { background: false } },
      { method: 'DELETE', url: '/v1/remotes/team' },
      { method: 'POST', url: '/v1/remotes/team/test' },
    ] as const;
    for (const request of requests) {
      expectError(await ctx.request({ ...request, as: member }), 403, 'forbidden');
    }
    expect((await ctx.db.selectFrom('remotes').selectAll().execute()).length).toBe(before);
    expect((await remoteRow('team')).background).toBe(1);
  });

  it('refuses a taken name (409), a bad name, a refused URL or a CA that is no certificate (400)', async () => {
    expectError(await add({ name: 'team', url: urls.upstream }), 409, 'conflict');
    const badName = expectError(await add({ name: 'Team!', url: urls.upstream }), 400, 'validation_failed');
    expect(badName.details.map((d) => d.field)).toEqual(['name']);
    for (const url of [
      'http://scandesk.example.org',
      'https://me:pw@example.org',
      'https://example.org/?q=1',
      'nope',
    ]) {
      const refused = expectError(await add({ name: 'other', url }), 400, 'validation_failed');
      expect(
        refused.details.map((d) => d.field),
        url,
      ).toEqual(['url']);
      expect(JSON.stringify(refused)).not.toContain(REMOTE_TOKEN);
    }
    const badCa = expectError(
      await add({ name: 'other', url: urls.upstream, ca_pem: 'hello' }),
      400,
      'validation_failed',
    );
    expect(badCa.details.map((d) => d.field)).toEqual(['ca_pem']);
    const badToken = expectError(
      await add({ name: 'other', url: urls.upstream, token: 'a b' }),
      400,
      'validation_failed',
    );
    expect(badToken.details.map((d) => d.field)).toEqual(['token']);
    expect(JSON.stringify(badToken)).not.toContain('a b');
    expect(await ctx.db.selectFrom('remotes').select('name').where('name', '=', 'other').execute()).toEqual([]);
  });

  it('takes plain http beyond loopback only with allow_insecure_http', async () => {
    const response = await add({
      name: 'lan',
      url: 'http://10.1.2.3:4790',
      allow_insecure_http: true,
      background: false,
      interval_minutes: 60,
    });
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json()).toMatchObject({ allow_insecure_http: true, background: false, interval_minutes: 60 });
    const refused = expectError(
      await ctx.request({ method: 'PATCH', url: '/v1/remotes/lan', payload: { allow_insecure_http: false } }),
      400,
      'validation_failed',
    );
    expect(refused.details.map((d) => d.field)).toEqual(['allow_insecure_http']);
    expect((await remoteRow('lan')).allow_insecure_http).toBe(1);
  });

  it('tests a Scandesk remote: its kind, user, organizations and scans, saved on the row', async () => {
    const response = await ctx.request({ method: 'POST', url: '/v1/remotes/team/test' });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({
      kind: 'scandesk',
      remote_user_id: 'usr_remote',
      organizations: 2,
      scans: 7,
    } satisfies RemoteTestResult);
    expect(await remoteRow('team')).toMatchObject({ kind: 'scandesk', remote_user_id: 'usr_remote' });
  });

  it('tests an upstream remote (no change feed) by its organizations and scan list', async () => {
    expect((await add({ name: 'up', url: urls.upstream })).statusCode).toBe(201);
    const response = await ctx.request({ method: 'POST', url: '/v1/remotes/up/test' });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ kind: 'upstream', organizations: 2, scans: 3 });
    expect((await remoteRow('up')).kind).toBe('upstream');
  });

  it('tests the fake upstream (written from UPSTREAM.md alone) over https with a private CA, under a path prefix', async () => {
    const upstream = await startFakeUpstream({
      tls: { key: ca.key, cert: ca.cert },
      basePath: '/api',
      urlHost: 'localhost',
      organizations: [{ name: 'Acme' }, { name: 'Beta', role: 'member' }, { name: 'Gamma' }],
      scans: [{ tool: 'a' }, { tool: 'b' }],
    });
    try {
      const added = await ctx.request({
        method: 'POST',
        url: '/v1/remotes',
        payload: { name: 'fake', url: `${upstream.url}/`, token: upstream.token, ca_pem: ca.caPem },
      });
      expect(added.statusCode, added.body).toBe(201);
      expect((added.json() as Remote).url).toBe(upstream.url);
      const tested = await ctx.request({ method: 'POST', url: '/v1/remotes/fake/test' });
      expect(tested.statusCode, tested.body).toBe(200);
      expect(tested.json()).toEqual({ kind: 'upstream', organizations: 3, scans: 2 });
      expect(tested.body).not.toContain(upstream.token);
    } finally {
      await upstream.close();
    }
    expect((await ctx.request({ method: 'DELETE', url: '/v1/remotes/fake' })).statusCode).toBe(204);
  });

  it('says in a 502 what failed: a refused token, an unreachable remote, an untrusted certificate', async () => {
    expect((await add({ name: 'wrong', url: urls.scandesk, token: 'sdt_wrong' })).statusCode).toBe(201);
    const refused = expectError(
      await ctx.request({ method: 'POST', url: '/v1/remotes/wrong/test' }),
      502,
      'bad_gateway',
    );
    expect(refused.message).toMatch(/refused the token/);
    expect(refused.details).toEqual([{ message: 'refused' }]);
    expect(JSON.stringify(refused)).not.toContain('sdt_wrong');

    expect((await add({ name: 'gone', url: urls.closed })).statusCode).toBe(201);
    const gone = expectError(await ctx.request({ method: 'POST', url: '/v1/remotes/gone/test' }), 502, 'bad_gateway');
    expect(gone.message).toMatch(/cannot reach .*refused/);
    expect(gone.details).toEqual([{ message: 'unreachable' }]);
    expect((await remoteRow('gone')).kind).toBeNull();

    expect((await add({ name: 'tls', url: urls.https })).statusCode).toBe(201);
    const untrusted = expectError(
      await ctx.request({ method: 'POST', url: '/v1/remotes/tls/test' }),
      502,
      'bad_gateway',
    );
    expect(untrusted.message).toMatch(/not trusted.*--ca/);
    expect(untrusted.details).toEqual([{ message: 'untrusted' }]);
  });

  it('trusts a private CA once it is given, and forgets it again with ca_pem null', async () => {
    const patched = await ctx.request({ method: 'PATCH', url: '/v1/remotes/tls', payload: { ca_pem: ca.caPem } });
    expect(patched.statusCode, patched.body).toBe(200);
    expect((patched.json() as Remote).ca_pem).toBe(ca.caPem);
    const tested = await ctx.request({ method: 'POST', url: '/v1/remotes/tls/test' });
    expect(tested.statusCode, tested.body).toBe(200);
    expect(tested.json()).toMatchObject({ kind: 'scandesk' });
    const cleared = await ctx.request({ method: 'PATCH', url: '/v1/remotes/tls', payload: { ca_pem: null } });
    expect((cleared.json() as Remote).ca_pem).toBeNull();
    expectError(await ctx.request({ method: 'POST', url: '/v1/remotes/tls/test' }), 502, 'bad_gateway');
  });

  it('replaces the token file on PATCH, and a new URL forgets what the remote was', async () => {
    const id = (await remoteRow('wrong')).id;
    const patched = await ctx.request({ method: 'PATCH', url: '/v1/remotes/wrong', payload: { token: REMOTE_TOKEN } });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.body).not.toContain(REMOTE_TOKEN);
    expect(readFileSync(remoteTokenFile(ctx.dataDir, id), 'utf8').trim()).toBe(REMOTE_TOKEN);
    expect(statSync(remoteTokenFile(ctx.dataDir, id)).mode & 0o777).toBe(0o600);
    expect((await ctx.request({ method: 'POST', url: '/v1/remotes/wrong/test' })).statusCode).toBe(200);
    await ctx.db.updateTable('remotes').set({ cursor: 'somewhere' }).where('id', '=', id).execute();

    const same = await ctx.request({
      method: 'PATCH',
      url: '/v1/remotes/wrong',
      payload: { url: `${urls.scandesk}/` },
    });
    expect(same.statusCode).toBe(200);
    expect(await remoteRow('wrong')).toMatchObject({ kind: 'scandesk', cursor: 'somewhere' });

    const moved = await ctx.request({ method: 'PATCH', url: '/v1/remotes/wrong', payload: { url: urls.upstream } });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(await remoteRow('wrong')).toMatchObject({ kind: null, remote_user_id: null, cursor: null });
    const refused = expectError(
      await ctx.request({ method: 'PATCH', url: '/v1/remotes/wrong', payload: { url: 'http://example.org' } }),
      400,
      'validation_failed',
    );
    expect(refused.details.map((d) => d.field)).toEqual(['url']);
  });

  it('removes a remote and its token file, keeping what it mirrored as local data; not while a sync runs', async () => {
    const row = await remoteRow('up');
    const org = await ctx.request({ method: 'POST', url: '/v1/organizations', payload: { name: 'Mirrored' } });
    const orgId = (org.json() as { id: string }).id;
    await ctx.db
      .updateTable('organizations')
      .set({ remote_id: row.id, remote_org_id: 'o1' })
      .where('id', '=', orgId)
      .execute();

    await ctx.db
      .updateTable('remotes')
      .set({ lease_owner: 'a sync', lease_until: Date.now() + 60_000 })
      .where('id', '=', row.id)
      .execute();
    expectError(await ctx.request({ method: 'DELETE', url: '/v1/remotes/up' }), 409, 'conflict');
    await ctx.db
      .updateTable('remotes')
      .set({ lease_owner: null, lease_until: null })
      .where('id', '=', row.id)
      .execute();

    const removed = await ctx.request({ method: 'DELETE', url: '/v1/remotes/up' });
    expect(removed.statusCode, removed.body).toBe(204);
    expect(existsSync(remoteTokenFile(ctx.dataDir, row.id))).toBe(false);
    expect(await ctx.db.selectFrom('remotes').select('id').where('id', '=', row.id).execute()).toEqual([]);
    const kept = await ctx.db.selectFrom('organizations').selectAll().where('id', '=', orgId).executeTakeFirstOrThrow();
    expect([kept.remote_id, kept.name]).toEqual([null, 'Mirrored']);
    expectError(await ctx.request({ method: 'DELETE', url: '/v1/remotes/up' }), 404, 'not_found');
  });

  it('never writes a remote token to the log', () => {
    expect(logLines.length).toBeGreaterThan(0);
    const log = logLines.join('');
    expect(log).not.toContain(REMOTE_TOKEN);
    expect(log).not.toContain('sdt_wrong');
  });
});
