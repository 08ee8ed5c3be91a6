import { describe, expect, it } from 'vitest';
import { isAppUrl, isSafeExternalUrl } from '../../../src/main/desktop/navigation-policy';

const APP = 'http://127.0.0.1:4790';

// Refused both inside the window and as external links.
const HOSTILE = [
  'file:///etc/passwd',
  'javascript:alert(1)',
  'data:text/html,<script>alert(1)</script>',
  'http://127.0.0.1.evil.example/',
  'https://127.0.0.1.evil.example/',
  'http://127.0.0.1:4790.evil.example/',
  'http://127.0.0.1:4791/',
  'http://localhost:4790/',
  'https://127.0.0.1:4790/',
  'http://evil.example@127.0.0.1.evil.example/',
  'about:blank',
  'chrome://gpu',
  'not a url',
  '',
];

describe('the window shows only the app origin', () => {
  it.each(['http://127.0.0.1:4790', 'http://127.0.0.1:4790/', 'http://127.0.0.1:4790/scans/scan_1?tool=x#top'])(
    'allows %s',
    (url) => expect(isAppUrl(url, APP)).toBe(true),
  );

  it.each(HOSTILE)('refuses %s', (url) => expect(isAppUrl(url, APP)).toBe(false));

  it('follows the port the server actually got', () => {
    expect(isAppUrl('http://127.0.0.1:51234/import', 'http://127.0.0.1:51234')).toBe(true);
    expect(isAppUrl('http://127.0.0.1:4790/import', 'http://127.0.0.1:51234')).toBe(false);
  });
});

describe('external links: https to named public hosts only', () => {
  it.each(['https://example.com/docs', 'https://github.com/org/repo/issues?q=1#x'])('opens %s', (url) =>
    expect(isSafeExternalUrl(url, APP)).toBe(true),
  );

  it.each([
    ...HOSTILE,
    'http://example.com/',
    'https://user:pass@example.com/',
    'https://example.com@evil.example/',
    'https://localhost/',
    'https://localhost.evil.example/',
    'https://app.localhost/',
    'https://127.0.0.1/',
    'https://10.0.0.1/',
    'https://[::1]/',
    'https://intranet/',
    'ftp://example.com/',
    'mailto:someone@example.com',
  ])('refuses %s', (url) => expect(isSafeExternalUrl(url, APP)).toBe(false));
});
