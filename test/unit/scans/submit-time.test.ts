import { describe, expect, it } from 'vitest';
import { CREATED_AT_MAX_AHEAD_MS } from '../../../src/shared/api/scans';
import { DomainError } from '../../../src/main/domain-error';
import { submittedAt } from '../../../src/main/scans/submit-time';

const NOW = Date.UTC(2026, 10, 26, 12, 0, 0);

function refusal(createdAt: string): DomainError {
  try {
    submittedAt(createdAt, NOW);
  } catch (error) {
    if (error instanceof DomainError) return error;
    throw error;
  }
  throw new Error(`${createdAt} was taken`);
}

describe('submittedAt', () => {
  it('is now without a created_at', () => {
    expect(submittedAt(undefined, NOW)).toBe(NOW);
  });

  it('takes any past time, in any RFC 3339 form', () => {
    expect(submittedAt('2026-11-01T08:30:00.123Z', NOW)).toBe(Date.UTC(2026, 10, 1, 8, 30, 0, 123));
    expect(submittedAt('2026-11-01T10:30:00+02:00', NOW)).toBe(Date.UTC(2026, 10, 1, 8, 30, 0));
    expect(submittedAt('0000-01-01T00:00:00Z', NOW)).toBe(Date.parse('0000-01-01T00:00:00.000Z'));
  });

  it('takes up to five minutes ahead of the clock, to the millisecond', () => {
    expect(CREATED_AT_MAX_AHEAD_MS).toBe(5 * 60_000);
    expect(submittedAt(new Date(NOW + CREATED_AT_MAX_AHEAD_MS).toISOString(), NOW)).toBe(NOW + CREATED_AT_MAX_AHEAD_MS);
  });

  it('refuses a time further ahead, naming created_at', () => {
    for (const ahead of [CREATED_AT_MAX_AHEAD_MS + 1, 60 * 60_000, 365 * 86_400_000]) {
      const error = refusal(new Date(NOW + ahead).toISOString());
      expect(error.code).toBe('validation_failed');
      expect(error.details).toEqual([
        { field: 'created_at', message: "must be at most 5 minutes ahead of the server's clock" },
      ]);
    }
  });
});
