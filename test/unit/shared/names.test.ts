import { Ajv } from 'ajv';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NameBody } from '../../../src/shared/api/common';
import { NAME_PATTERN } from '../../../src/shared/names';

const validate = new Ajv({ allErrors: true, strict: false }).compile(NameBody);

describe('the name rule (docs/contract/api.md#basics)', () => {
  it.each([['a'], ['Acme Corp'], ['  padded  '], ['Ünïcødé 名前'], ['x'.repeat(100)]])('accepts %j', (name) => {
    expect(validate({ name })).toBe(true);
  });

  it.each([
    [''],
    ['   '],
    ['\t'],
    ['x'.repeat(101)],
    ['tab\there'],
    ['new\nline'],
    ['nul\u0000'],
    ['bell\u0007'],
    ['del\u007f'],
    ['c1\u0085'],
    ['osc52\u001b]52;c;eA==\u0007'],
    ['invoice\u202egpj.exe'],
    ['\u2066isolate\u2069'],
  ])('refuses %j', (name) => {
    expect(validate({ name })).toBe(false);
  });

  it('refuses other types and unknown fields', () => {
    expect(validate({ name: 5 })).toBe(false);
    expect(validate({ name: null })).toBe(false);
    expect(validate({ name: 'ok', extra: 1 })).toBe(false);
    expect(validate({})).toBe(false);
  });
});

describe('the name pattern, as outside tools read it', () => {
  // The rule as first written, with Unicode property escapes only some regex dialects know, and
  // the bidirectional controls (plain-text.ts).
  const reference =
    /^[^\p{Cc}\u202a-\u202e\u2066-\u2069]*[^\p{Cc}\s\u202a-\u202e\u2066-\u2069][^\p{Cc}\u202a-\u202e\u2066-\u2069]*$/u;
  const interesting = fc.constantFrom(
    ...[0x00, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x1f, 0x20, 0x41, 0x7e, 0x7f, 0x80, 0x85, 0x9f, 0xa0, 0xad]
      .concat([0x1680, 0x180e, 0x2000, 0x200a, 0x200b, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000, 0xfeff, 0x540d])
      .concat([0x2029, 0x202a, 0x202e, 0x2065, 0x2066, 0x2069, 0x206a])
      .map((code) => String.fromCodePoint(code)),
  );

  it('uses only \\x and \\u escapes, no property escapes or \\s', () => {
    expect(NAME_PATTERN).not.toMatch(/\\p\{|\\s/);
  });

  it('accepts exactly what the property-escape rule accepts, with or without the u flag', () => {
    const withU = new RegExp(NAME_PATTERN, 'u');
    const without = new RegExp(NAME_PATTERN);
    fc.assert(
      fc.property(fc.array(fc.oneof(interesting, fc.string({ maxLength: 3 })), { maxLength: 6 }), (parts) => {
        const name = parts.join('');
        expect(withU.test(name)).toBe(reference.test(name));
        expect(without.test(name)).toBe(reference.test(name));
      }),
      { numRuns: 5000 },
    );
  });
});
