import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { NameBody } from '../../../src/shared/api/common';

const validate = new Ajv({ allErrors: true, strict: false }).compile(NameBody);

describe('the name rule (SPEC.md §4)', () => {
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
