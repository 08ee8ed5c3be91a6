import { describe, expect, it } from 'vitest';
import { invalidPackage, packageError } from '../../../../src/main/evidence/import/import-errors';

const shape = (error: { code: string; message: string; details: unknown }) => ({
  code: error.code,
  message: error.message,
  details: error.details,
});

describe('the invalid_package builder', () => {
  it('names the entry before the problem, or only the problem for the package as a whole', () => {
    expect(shape(invalidPackage('not UTF-8', 'a.json'))).toEqual({
      code: 'invalid_package',
      message: 'a.json: not UTF-8',
      details: [{ entry: 'a.json', message: 'not UTF-8' }],
    });
    expect(shape(invalidPackage('no evidence file'))).toEqual({
      code: 'invalid_package',
      message: 'no evidence file',
      details: [{ message: 'no evidence file' }],
    });
  });

  it('names a place inside the entry after it, and starts each detail with the place', () => {
    expect(
      shape(packageError({ entry: 't.jsonl', at: 'line 3', problems: ['tokens must be an integer >= 0', 'x'] })),
    ).toEqual({
      code: 'invalid_package',
      message: 't.jsonl line 3: tokens must be an integer >= 0',
      details: [
        { entry: 't.jsonl', message: 'line 3: tokens must be an integer >= 0' },
        { entry: 't.jsonl', message: 'line 3: x' },
      ],
    });
  });

  it('puts the context in the message only', () => {
    expect(shape(packageError({ entry: 'm.json', context: 'not a format-1 manifest', problems: ['a', 'b'] }))).toEqual({
      code: 'invalid_package',
      message: 'm.json: not a format-1 manifest: a',
      details: [
        { entry: 'm.json', message: 'a' },
        { entry: 'm.json', message: 'b' },
      ],
    });
    expect(shape(packageError({ entry: 'm.json', context: 'not a scan', problems: [] }))).toEqual({
      code: 'invalid_package',
      message: 'm.json: not a scan: invalid',
      details: [],
    });
  });
});
