import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { ERROR_STATUS, type ErrorCode } from '../../src/shared/api/errors';
import type { Db } from '../../src/main/db/database';
import { UsageError } from '../../src/cli/usage-error';

/** Asserts the one error shape of docs/contract/errors.md#shape, exactly: no more keys, no fewer. */
export function expectError(
  response: LightMyRequestResponse,
  status: number,
  code: ErrorCode,
): { message: string; details: { field?: string; entry?: string; message: string }[] } {
  expect(ERROR_STATUS[code]).toBe(status);
  expect(response.statusCode, response.body).toBe(status);
  expect(response.headers['content-type']).toMatch(/^application\/json/);
  const body = response.json() as { error: Record<string, unknown> };
  expect(Object.keys(body)).toEqual(['error']);
  expect(Object.keys(body.error).sort()).toEqual(['code', 'details', 'message', 'status']);
  expect(body.error.status).toBe(status);
  expect(body.error.code).toBe(code);
  expect(typeof body.error.message).toBe('string');
  expect((body.error.message as string).length).toBeGreaterThan(0);
  expect(Array.isArray(body.error.details)).toBe(true);
  for (const detail of body.error.details as Record<string, unknown>[]) {
    expect(typeof detail.message).toBe('string');
  }
  return body.error as unknown as ReturnType<typeof expectError>;
}

const TABLES = [
  'users',
  'tokens',
  'sessions',
  'organizations',
  'memberships',
  'teams',
  'team_members',
  'policies',
  'scans',
  'scan_counts',
  'scan_days',
  'scan_hours',
  'organization_days',
  'organization_hours',
  'flagged_scan_days',
  'flagged_organization_days',
  'flagged_scan_hours',
  'violation_days',
  'timelines',
  'timeline_entries',
  'violations',
] as const;

/** Every row of every table, in a stable order: compare two snapshots to prove nothing changed. */
export async function snapshotDatabase(db: Db): Promise<Record<string, unknown[]>> {
  const snapshot: Record<string, unknown[]> = {};
  for (const table of TABLES) {
    const rows = await db.selectFrom(table).selectAll().execute();
    // When a token or session was last used is the request's own trace, not data it may change.
    snapshot[table] = rows
      .map(({ last_used_at: _used, ...row }: Record<string, unknown>) => JSON.stringify(row))
      .sort();
  }
  return snapshot;
}

/** The message of the UsageError `run` throws; fails the test if it throws anything else. */
export function usageMessage(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return (error as Error).message;
  }
  throw new Error('expected a UsageError');
}
