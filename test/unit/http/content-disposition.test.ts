import { describe, expect, it } from 'vitest';
import { attachmentDisposition } from '../../../src/main/http/content-disposition';

/** The parameters as a client reads them: the quoted fallback and the decoded `filename*`. */
function parse(header: string): { fallback: string; exact: string } {
  const match = /^attachment; filename="([^"\\]*)"; filename\*=UTF-8''([A-Za-z0-9!#$&+.^_`|~%-]*)$/.exec(header);
  expect(match, header).not.toBeNull();
  return { fallback: match![1]!, exact: decodeURIComponent(match![2]!) };
}

/** What Node's http module accepts as a header value (it throws on anything else). */
const validHeaderValue = (value: string): boolean => /^[\t\x20-\x7e\x80-\xff]*$/.test(value);

describe('attachmentDisposition', () => {
  it('sends a plain ASCII name as it is, in `filename` alone', () => {
    const header = attachmentDisposition('scandesk-evidence-scan_01JD2Q.zip');
    expect(header).toBe(`attachment; filename="scandesk-evidence-scan_01JD2Q.zip"`);
  });

  it.each([
    ['a quote', 'evidence-a"b.zip', 'evidence-a_b.zip'],
    ['a quote and a parameter', 'x"; filename="evil.exe', 'x___filename__evil.exe'],
    ['CR LF', 'a\r\nSet-Cookie: x=1.zip', 'a__Set-Cookie__x_1.zip'],
    ['RTL override U+202E', 'evidence-\u202Egpj.zip', 'evidence-_gpj.zip'],
    ['CJK', 'evidence-漢字.zip', 'evidence-__.zip'],
    ['dot-dot', '..', '_.'],
    ['a lone surrogate', 'a\uD800b', 'a_b'],
    ['nothing', '', 'download'],
  ])('encodes %s safely and exactly', (_label, name, fallback) => {
    const header = attachmentDisposition(name);
    expect(validHeaderValue(header)).toBe(true);
    const parsed = parse(header);
    expect(parsed.fallback).toBe(fallback);
    expect(parsed.exact).toBe(name.replace(/\uD800/, '\uFFFD'));
  });

  it('names the last segment of a path in `filename*`, the name a browser would save anyway', () => {
    expect(parse(attachmentDisposition('../../etc/passwd'))).toEqual({ fallback: '_._.._etc_passwd', exact: 'passwd' });
  });

  it('percent-encodes what RFC 5987 leaves out of attr-char, as UTF-8 bytes', () => {
    expect(attachmentDisposition("a b'(*)%.zip")).toContain(`filename*=UTF-8''a%20b%27%28%2A%29%25.zip`);
    expect(attachmentDisposition('漢')).toContain(`filename*=UTF-8''%E6%BC%A2`);
    expect(attachmentDisposition('\u202E')).toContain(`filename*=UTF-8''%E2%80%AE`);
  });
});
