import { describe, expect, it } from 'vitest';
import { checkRemoteUrl, isLoopbackHost } from '../../../../src/main/sync/remotes/remote-url';

const accepted = (input: string, insecure = false): string => {
  const check = checkRemoteUrl(input, insecure);
  if (!check.ok) throw new Error(`refused ${input}: ${check.reason}`);
  return check.url;
};
const refusal = (input: string, insecure = false): string => {
  const check = checkRemoteUrl(input, insecure);
  if (check.ok) throw new Error(`accepted ${input} as ${check.url}`);
  return check.reason;
};

describe('checkRemoteUrl (docs/contract/api.md#remotes)', () => {
  it('takes https anywhere and keeps a path prefix, without trailing slashes', () => {
    expect(accepted('https://scandesk.example.org')).toBe('https://scandesk.example.org');
    expect(accepted('https://scandesk.example.org/')).toBe('https://scandesk.example.org');
    expect(accepted('https://Example.ORG:8443/team/scandesk//')).toBe('https://example.org:8443/team/scandesk');
    expect(accepted('https://example.org:443/x')).toBe('https://example.org/x');
  });

  it('takes plain http to loopback only', () => {
    expect(accepted('http://127.0.0.1:4790')).toBe('http://127.0.0.1:4790');
    expect(accepted('http://127.9.8.7')).toBe('http://127.9.8.7');
    expect(accepted('http://localhost:4790/')).toBe('http://localhost:4790');
    expect(accepted('http://[::1]:4790')).toBe('http://[::1]:4790');
    expect(refusal('http://scandesk.example.org')).toMatch(/https/);
    expect(refusal('http://10.0.0.5:4790')).toMatch(/https/);
    expect(refusal('http://128.0.0.1')).toMatch(/https/);
    expect(refusal('http://localhost.example.org')).toMatch(/https/);
  });

  it('takes plain http anywhere when insecure http is allowed', () => {
    expect(accepted('http://10.0.0.5:4790/', true)).toBe('http://10.0.0.5:4790');
  });

  it('refuses credentials, a query, a fragment, other schemes and non-URLs', () => {
    expect(refusal('https://me:pw@example.org')).toMatch(/password/);
    expect(refusal('https://me@example.org')).toMatch(/user name/);
    expect(refusal('https://example.org/?a=1')).toMatch(/query/);
    expect(refusal('https://example.org/?')).toMatch(/query/);
    expect(refusal('https://example.org/#top')).toMatch(/fragment/);
    expect(refusal('https://example.org/#')).toMatch(/fragment/);
    expect(refusal('ftp://example.org')).toMatch(/https:\/\//);
    expect(refusal('file:///etc/passwd')).toMatch(/https:\/\//);
    expect(refusal('example.org')).toMatch(/not a URL/);
    expect(refusal('')).toMatch(/not a URL/);
  });
});

describe('isLoopbackHost', () => {
  it('knows 127.0.0.0/8, ::1 and localhost', () => {
    for (const host of ['127.0.0.1', '127.255.255.254', 'localhost', 'LOCALHOST', '[::1]']) {
      expect(isLoopbackHost(host), host).toBe(true);
    }
    for (const host of ['126.0.0.1', '0.0.0.0', '[::]', '[::ffff:7f00:1]', 'example.org', '127.0.0.1.example.org']) {
      expect(isLoopbackHost(host), host).toBe(false);
    }
  });
});
