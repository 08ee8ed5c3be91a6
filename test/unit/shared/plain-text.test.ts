import { Ajv } from 'ajv';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { plainText } from '../../../src/shared/api/common';
import { isPlainText, PLAIN_TEXT_PATTERN, UNSAFE_TEXT } from '../../../src/shared/plain-text';

// Written out independently of the module: Unicode's Cc and the bidirectional controls.
const reference = /^[^\p{Cc}\u202a-\u202e\u2066-\u2069]*$/u;

describe('the plain-text rule', () => {
  const validate = new Ajv({ strict: false }).compile(plainText());

  it.each([[''], ['tokens.scan_limit'], ['Über 200,000 tokens: 名前 🚀'], ['a\u200bb'], ['\u00a0']])(
    'accepts %j',
    (text) => {
      expect(isPlainText(text)).toBe(true);
      expect(validate(text)).toBe(true);
    },
  );

  it.each([
    ['\u001b]52;c;eA==\u0007'],
    ['\u001b[2J'],
    ['\u009b2J'],
    ['line\nbreak'],
    ['tab\t'],
    ['del\u007f'],
    ['nul\u0000'],
    ['rtl\u202eoverride'],
    ['\u202aembedding'],
    ['\u2066isolate\u2069'],
  ])('refuses %j', (text) => {
    expect(isPlainText(text)).toBe(false);
    expect(validate(text)).toBe(false);
  });

  it('is the reference rule, read with or without the u flag, and UNSAFE_TEXT finds exactly what it refuses', () => {
    const withU = new RegExp(PLAIN_TEXT_PATTERN, 'u');
    const without = new RegExp(PLAIN_TEXT_PATTERN);
    const interesting = fc.constantFrom(
      ...[0x00, 0x0a, 0x1b, 0x1f, 0x20, 0x7e, 0x7f, 0x80, 0x9b, 0x9f, 0xa0, 0x2029, 0x202a, 0x202e, 0x202f]
        .concat([0x2065, 0x2066, 0x2069, 0x206a, 0x540d, 0x1f680])
        .map((code) => String.fromCodePoint(code)),
    );
    fc.assert(
      fc.property(fc.array(fc.oneof(interesting, fc.string({ maxLength: 3 })), { maxLength: 6 }), (parts) => {
        const text = parts.join('');
        expect(withU.test(text)).toBe(reference.test(text));
        expect(without.test(text)).toBe(reference.test(text));
        expect(text.replace(UNSAFE_TEXT, '') === text).toBe(reference.test(text));
      }),
      { numRuns: 5000 },
    );
  });
});
