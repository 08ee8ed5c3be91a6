import { describe, expect, it } from 'vitest';
import { isApiPath, normalizedPath } from '../../../src/main/server/request-path';

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
