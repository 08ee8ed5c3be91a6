import { describe, expect, it } from 'vitest';
import { isLoopbackAddress, originRefusal, type OriginFacts } from '../../../../src/main/server/request-guards/origin';

const direct: OriginFacts = {
  host: '127.0.0.1:4790',
  origin: undefined,
  secFetchSite: undefined,
  peer: '127.0.0.1',
  forwardedProto: undefined,
  forwardedHost: undefined,
};
const plain = { allowHosts: [], port: 4790, trustProxy: false };
const proxy = { allowHosts: ['scandesk.example'], port: 4790, trustProxy: true };
/** What a TLS proxy on this machine passes on for a browser at https://scandesk.example:8443. */
const forwarded: OriginFacts = {
  ...direct,
  origin: 'https://scandesk.example:8443',
  forwardedProto: 'https',
  forwardedHost: 'scandesk.example:8443',
};

describe('originRefusal without a proxy', () => {
  it('accepts our own host and origin, the scheme default port included', () => {
    expect(originRefusal(direct, plain)).toBeNull();
    expect(originRefusal({ ...direct, origin: 'http://127.0.0.1:4790' }, plain)).toBeNull();
    expect(originRefusal({ ...direct, host: 'LOCALHOST:4790', origin: 'http://localhost:4790' }, plain)).toBeNull();
    expect(originRefusal({ ...direct, host: '[::1]', origin: 'http://[::1]' }, { ...plain, port: null })).toBeNull();
  });

  it.each([
    ['another host', { host: 'evil.example:4790' }],
    ['another port in Host', { host: '127.0.0.1:4791' }],
    ['no Host', { host: undefined }],
    ['an https Origin', { origin: 'https://127.0.0.1:4790' }],
    ['Origin: null', { origin: 'null' }],
    ['an Origin with a path', { origin: 'http://127.0.0.1:4790/x' }],
    ['another port in Origin', { origin: 'http://127.0.0.1:4791' }],
    ['Sec-Fetch-Site: cross-site', { secFetchSite: 'cross-site' }],
  ])('refuses %s', (_label, change: Partial<OriginFacts>) => {
    expect(originRefusal({ ...direct, ...change }, plain)).not.toBeNull();
  });

  it('ignores X-Forwarded-* unless told to trust a proxy', () => {
    expect(originRefusal(forwarded, { ...plain, allowHosts: ['scandesk.example'] })).toMatch(/cross-site/);
  });
});

describe('originRefusal behind a trusted proxy on loopback', () => {
  it("expects the proxy's https origin, whether it passes on our Host or the browser's", () => {
    expect(originRefusal(forwarded, proxy)).toBeNull();
    expect(originRefusal({ ...forwarded, host: 'scandesk.example:8443' }, proxy)).toBeNull();
    expect(
      originRefusal(
        { ...forwarded, host: 'scandesk.example', forwardedHost: undefined, origin: 'https://scandesk.example' },
        proxy,
      ),
    ).toBeNull();
  });

  it('reads a Host and Origin without a port as the default https port', () => {
    const onDefaultPort = { ...forwarded, origin: 'https://scandesk.example', forwardedHost: 'scandesk.example' };
    expect(originRefusal(onDefaultPort, proxy)).toBeNull();
    expect(originRefusal({ ...onDefaultPort, forwardedHost: 'scandesk.example:443' }, proxy)).toBeNull();
    expect(originRefusal({ ...onDefaultPort, origin: 'https://scandesk.example:8443' }, proxy)).toMatch(/cross-site/);
  });

  it('takes the last entry a chain of proxies appended', () => {
    expect(
      originRefusal({ ...forwarded, forwardedProto: 'http, https', forwardedHost: 'x, scandesk.example:8443' }, proxy),
    ).toBeNull();
  });

  it.each([
    ['another origin', { origin: 'https://evil.example:8443' }],
    ['the same host over http', { origin: 'http://scandesk.example:8443' }],
    ['a forwarded host not allowed', { forwardedHost: 'evil.example:8443', origin: 'https://evil.example:8443' }],
    ['a Host not allowed (a rebound name forging X-Forwarded-Host)', { host: 'evil.example:4790' }],
    ['a forwarded scheme that is neither http nor https', { forwardedProto: 'gopher' }],
    ['Sec-Fetch-Site: cross-site', { secFetchSite: 'cross-site' }],
  ])('refuses %s', (_label, change: Partial<OriginFacts>) => {
    expect(originRefusal({ ...forwarded, ...change }, proxy)).not.toBeNull();
  });

  it('believes only a peer on loopback', () => {
    expect(originRefusal({ ...forwarded, peer: '::ffff:127.0.0.1' }, proxy)).toBeNull();
    expect(originRefusal({ ...forwarded, peer: '::1' }, proxy)).toBeNull();
    expect(originRefusal({ ...forwarded, peer: '192.0.2.7' }, proxy)).toMatch(/cross-site/);
    expect(originRefusal({ ...forwarded, peer: undefined }, proxy)).toMatch(/cross-site/);
  });

  it('judges a request that came straight to the server, not through the proxy, as without one', () => {
    const straight = { ...direct, origin: 'http://127.0.0.1:4790' };
    expect(originRefusal(straight, proxy)).toBeNull();
    expect(originRefusal({ ...straight, host: '127.0.0.1:4791' }, proxy)).not.toBeNull();
  });
});

describe('isLoopbackAddress', () => {
  it('is 127.0.0.0/8 and ::1, IPv4-mapped too', () => {
    for (const address of ['127.0.0.1', '127.9.8.7', '::1', '::ffff:127.0.0.1', '::FFFF:127.0.0.2']) {
      expect(isLoopbackAddress(address), address).toBe(true);
    }
    for (const address of ['192.0.2.7', '::ffff:192.0.2.7', '128.0.0.1', '::2', '1127.0.0.1', '', undefined]) {
      expect(isLoopbackAddress(address), String(address)).toBe(false);
    }
  });
});
