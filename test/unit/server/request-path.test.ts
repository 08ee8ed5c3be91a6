import { describe, expect, it } from 'vitest';
import { isApiPath, isApiRoute, normalizedPath, sameOriginRedirect } from '../../../src/main/server/request-path';

describe('normalizedPath', () => {
  it('decodes percent-encoding as the router does', () => {
    expect(normalizedPath('/%761/openapi.json')).toBe('/v1/openapi.json');
    expect(normalizedPath('/%76%31/scans?limit=1')).toBe('/v1/scans');
  });

  it('drops the scheme and authority of an absolute-form target', () => {
    expect(normalizedPath('http://x/v1/me')).toBe('/v1/me');
    expect(normalizedPath('HTTP://127.0.0.1:4790/%761/me?x=1')).toBe('/v1/me');
    expect(normalizedPath('http://x')).toBe('/');
  });

  it('drops query and fragment, and keeps an undecodable path as it is', () => {
    expect(normalizedPath('/v1/scans#top')).toBe('/v1/scans');
    expect(normalizedPath('/v1/scans/%zz')).toBe('/v1/scans/%zz');
    expect(normalizedPath('')).toBe('/');
  });
});

describe('isApiPath', () => {
  it('is the /v1 tree and nothing that merely starts like it', () => {
    expect(isApiPath('/v1')).toBe(true);
    expect(isApiPath('/v1/me')).toBe(true);
    expect(isApiPath('/v10/me')).toBe(false);
    expect(isApiPath('/assets/v1.js')).toBe(false);
  });
});

describe('isApiRoute', () => {
  it("is a declared route of the API and /healthz, never the viewer's or the sign-in pages'", () => {
    expect(isApiRoute('/v1/scans/:scanId')).toBe(true);
    expect(isApiRoute('/healthz')).toBe(true);
    expect(isApiRoute('/*')).toBe(false);
    expect(isApiRoute('/sign-in')).toBe(false);
  });
});

describe('sameOriginRedirect', () => {
  // What a browser makes of a Location: the origin it would go to must always be ours.
  const resolved = (location: string): URL => new URL(location, 'http://127.0.0.1:4790/any/page');

  it('takes the parameter out and keeps the rest of a deep link', () => {
    expect(sameOriginRedirect('/?token=sdt_x', 'token')).toBe('/');
    expect(sameOriginRedirect('/scans/scan_x?token=sdt_x&tool=Claude', 'token')).toBe('/scans/scan_x?tool=Claude');
    expect(sameOriginRedirect('/a//b?token=1', 'token')).toBe('/a//b');
  });

  it.each([
    ['/.//evil.example/x?token=1', '/evil.example/x'],
    ['//evil.example/x?token=1', '/evil.example/x'],
    ['///evil.example/x?token=1', '/evil.example/x'],
    ['/\\evil.example/x?token=1', '/evil.example/x'],
    ['/\\/evil.example/x?token=1', '/evil.example/x'],
    ['\\\\evil.example/x?token=1', '/evil.example/x'],
    ['/\t/evil.example/x?token=1', '/evil.example/x'],
    ['/..//evil.example/x?token=1', '/evil.example/x'],
    ['/./\\./evil.example/x?token=1', '/evil.example/x'],
    ['http://evil.example//evil.example/x?token=1', '/evil.example/x'],
    ['https://evil.example?token=1', '/'],
    ['*', '/*'],
  ])('%j never leaves this server (→ %s)', (target, expected) => {
    const location = sameOriginRedirect(target, 'token');
    expect(location).toBe(expected);
    expect(location).toMatch(/^\/(?![/\\])/);
    expect(resolved(location).origin).toBe('http://127.0.0.1:4790');
  });

  it('keeps encoded slashes encoded, which browsers never read as an authority', () => {
    const location = sameOriginRedirect('/%2F%2Fevil.example/x?token=1', 'token');
    expect(location).toBe('/%2F%2Fevil.example/x');
    expect(resolved(location).origin).toBe('http://127.0.0.1:4790');
  });
});
