import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { Id } from '../../../src/shared/api/common';
import { isId } from '../../../src/shared/ids';

const validate = new Ajv({ strict: false }).compile(Id);

describe('the id rule', () => {
  it.each([
    ['scan_01JD2Q8Z7Y6X5W4V3T2S1R0QPN'],
    ['vio_01JD2Q8Z7Y6X5W4V3T2S1R0QPN'],
    ['a'],
    ['Up.stream:ID-1_x'],
    ['...'],
    ['.hidden'],
    ['x'.repeat(100)],
  ])('accepts %j', (id) => {
    expect(validate(id)).toBe(true);
    expect(isId(id)).toBe(true);
  });

  it.each([
    [''],
    ['.'],
    ['..'],
    ['a"b'],
    ['scan_\u202Egpj.exe'],
    ['scan_漢字'],
    ['a/b'],
    ['a\\b'],
    ['a b'],
    ['a%2e'],
    ['nul\u0000'],
    ['new\nline'],
    ['x'.repeat(101)],
  ])('refuses %j', (id) => {
    expect(validate(id)).toBe(false);
    expect(isId(id)).toBe(false);
  });
});
