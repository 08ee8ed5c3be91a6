import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../helpers/test-app';
import { requestThroughProxy, startTlsProxy, type HostMode, type TlsProxy } from '../../helpers/tls-proxy';

// `serve --trust-proxy` behind a real TLS proxy on loopback: the browser's origin is the proxy's
// https one, which the server learns only from the proxy's X-Forwarded-* headers.

const navigation = { 'sec-fetch-site': 'none', 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'document' };

interface Served {
  ctx: TestContext;
  proxy: TlsProxy;
}

async function serveBehindProxy(trustProxy: boolean, hostMode: HostMode): Promise<Served> {
  const ctx = await createTestContext({ trustProxy });
  await ctx.app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = ctx.app.server.address() as AddressInfo;
  const proxy = await startTlsProxy(`http://127.0.0.1:${port}`, hostMode);
  return { ctx, proxy };
}

async function stop({ ctx, proxy }: Served): Promise<void> {
  await proxy.stop();
  await ctx.close();
}

/** Signs in through the proxy as a browser does; returns the cookie's `Set-Cookie` and `Cookie` forms. */
async function signIn({ ctx, proxy }: Served, host: string): Promise<{ setCookie: string; cookie: string }> {
  const response = await requestThroughProxy(proxy, {
    path: `/?token=${encodeURIComponent(ctx.owner.token)}`,
    headers: { host, ...navigation },
  });
  expect(response.status, response.body).toBe(303);
  const setCookie = [response.headers['set-cookie'] ?? []].flat()[0]!;
  return { setCookie, cookie: setCookie.split(';')[0]! };
}

/** What the viewer's fetch sends to create an organization: cookie, Origin, same-origin metadata. */
const createOrganization = (served: Served, headers: Record<string, string>, name = 'Team') =>
  requestThroughProxy(served.proxy, {
    method: 'POST',
    path: '/v1/organizations',
    headers: { 'content-type': 'application/json', 'sec-fetch-site': 'same-origin', ...headers },
    body: JSON.stringify({ name }),
  });

const organizationCount = async ({ ctx }: Served): Promise<number> =>
  (await ctx.db.selectFrom('organizations').select('id').execute()).length;

describe.each<HostMode>(['upstream', 'browser'])('serve --trust-proxy behind a TLS proxy (Host: %s)', (hostMode) => {
  let served: Served;
  let host: string;
  let origin: string;
  beforeAll(async () => {
    served = await serveBehindProxy(true, hostMode);
    host = `localhost:${served.proxy.port}`;
    origin = `https://${host}`;
  });
  afterAll(() => stop(served));

  it('signs the browser in with a Secure cookie and takes its https writes', async () => {
    const { setCookie, cookie } = await signIn(served, host);
    expect(setCookie).toMatch(/; Secure/);
    const created = await createOrganization(served, { host, origin, cookie });
    expect(created.status, created.body).toBe(201);
    const read = await requestThroughProxy(served.proxy, {
      path: '/v1/organizations',
      headers: { host, cookie, 'sec-fetch-site': 'same-origin' },
    });
    expect(read.status, read.body).toBe(200);
  });

  it('takes a write from a browser on the default https port, whose Host and Origin carry no port', async () => {
    const { cookie } = await signIn(served, 'localhost');
    const created = await createOrganization(served, { host: 'localhost', origin: 'https://localhost', cookie }, 'B');
    expect(created.status, created.body).toBe(201);
  });

  it.each([
    { label: 'another origin', origin: () => 'https://evil.example' },
    { label: 'the same host over http', origin: () => `http://localhost:${served.proxy.port}` },
    { label: 'another port of this host', origin: () => 'https://localhost:1' },
    { label: 'Origin: null', origin: () => 'null' },
  ])('still refuses a write from $label, and stores nothing', async ({ origin: from }) => {
    const { cookie } = await signIn(served, host);
    const before = await organizationCount(served);
    const refused = await createOrganization(served, { host, origin: from(), cookie });
    expect(refused.status, refused.body).toBe(403);
    expect(await organizationCount(served)).toBe(before);
  });

  it('still refuses a host name it does not serve (DNS rebinding through the proxy)', async () => {
    const { cookie } = await signIn(served, host);
    const rebound = `evil.example:${served.proxy.port}`;
    const refused = await createOrganization(served, { host: rebound, origin: `https://${rebound}`, cookie });
    expect(refused.status, refused.body).toBe(403);
  });

  it('still refuses a cross-site request', async () => {
    const { cookie } = await signIn(served, host);
    const refused = await createOrganization(served, { host, origin, cookie, 'sec-fetch-site': 'cross-site' });
    expect(refused.status, refused.body).toBe(403);
  });
});

describe('serve without --trust-proxy behind the same TLS proxy', () => {
  it('refuses the https write: X-Forwarded-* from the proxy are not believed', async () => {
    const served = await serveBehindProxy(false, 'upstream');
    try {
      const host = `localhost:${served.proxy.port}`;
      const signedIn = await requestThroughProxy(served.proxy, {
        path: `/?token=${encodeURIComponent(served.ctx.owner.token)}`,
        headers: { host, ...navigation },
      });
      expect(signedIn.status, signedIn.body).toBe(303);
      const setCookie = [signedIn.headers['set-cookie'] ?? []].flat()[0]!;
      expect(setCookie).not.toMatch(/; Secure/);
      const refused = await createOrganization(served, {
        host,
        origin: `https://${host}`,
        cookie: setCookie.split(';')[0]!,
      });
      expect(refused.status, refused.body).toBe(403);
      expect(await organizationCount(served)).toBe(0);
    } finally {
      await stop(served);
    }
  });
});

describe('serve --trust-proxy believes X-Forwarded-* only from loopback', () => {
  it('refuses a forwarded https origin from a peer that is not on this machine', async () => {
    const ctx = await createTestContext({ trustProxy: true, allowHosts: ['scandesk.example'] });
    try {
      const forwarded = {
        host: 'scandesk.example',
        origin: 'https://scandesk.example',
        'x-forwarded-proto': 'https',
        'x-forwarded-host': 'scandesk.example',
      };
      const write = (remoteAddress: string) =>
        ctx.request({
          method: 'POST',
          url: '/v1/organizations',
          payload: { name: 'T' },
          headers: forwarded,
          remoteAddress,
        });
      expect((await write('192.0.2.7')).statusCode).toBe(403);
      const local = await write('127.0.0.1');
      expect(local.statusCode, local.body).toBe(201);
    } finally {
      await ctx.close();
    }
  });
});
