import { describe, expect, it } from 'vitest';
import { classifyDbError, isRetryable } from '../../../src/main/db/db-errors';

describe('classifyDbError', () => {
  it.each([
    [{ code: '23505' }, 'unique'],
    [{ code: '23503' }, 'foreign-key'],
    [{ code: '40001' }, 'serialization'],
    [{ code: '40P01' }, 'deadlock'],
    [{ code: 'SQLITE_CONSTRAINT_PRIMARYKEY' }, 'unique'],
    [{ code: 'SQLITE_BUSY' }, 'busy'],
    [{ code: '42P01' }, undefined],
    [new Error('plain'), undefined],
    ['23505', undefined],
    [null, undefined],
  ])('%j is %s', (error, kind) => {
    expect(classifyDbError(error)).toBe(kind);
  });

  it('retries lost races only', () => {
    expect(['serialization', 'deadlock', 'unique'].every((kind) => isRetryable(kind as never))).toBe(true);
    expect(isRetryable('foreign-key')).toBe(false);
    expect(isRetryable('busy')).toBe(false);
    expect(isRetryable(undefined)).toBe(false);
  });
});
