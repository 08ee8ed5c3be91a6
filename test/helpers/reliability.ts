/**
 * Shared by the reliability suite (crash safety, concurrency, fuzzing): seeds that can be replayed,
 * a non-throwing check of the error shape (concurrent loops collect problems instead of failing
 * mid-flight), and a cheap fingerprint of the whole store.
 */
import { createHash } from 'node:crypto';
import { ERROR_STATUS } from '../../src/shared/api/errors';
import type { Db } from '../../src/main/db/database';
import { snapshotDatabase } from './assertions';
import { seededRandom } from '../fixtures/seeded-random';

/**
 * The seed of a randomized test: `SCANDESK_SEED` (or the given variable) replays a failure,
 * else a fresh one. Printed either way, so that a failing CI run can be reproduced.
 */
export function testSeed(label: string, variable = 'SCANDESK_SEED'): number {
  const fromEnv = process.env[variable];
  const seed =
    fromEnv !== undefined && /^-?\d+$/.test(fromEnv) ? Number(fromEnv) : (Date.now() ^ (process.pid << 8)) | 0;
  console.log(`[${label}] seed ${seed} (replay with ${variable}=${seed})`);
  return seed;
}

/** Drives a test's choices from one seed (see seededRandom). */
export function makeRng(seed: number): { next(): number; int(max: number): number; pick<T>(items: readonly T[]): T } {
  const next = seededRandom(seed);
  const int = (max: number): number => Math.floor(next() * max);
  return { next, int, pick: (items) => items[int(items.length)]! };
}

/**
 * What is wrong with an error response against docs/contract/errors.md#shape, or null when it has the one shape:
 * `{error: {status, code, message, details}}` with the status matching both the code and the
 * HTTP status. Never throws, so that it can run inside concurrent client loops.
 */
export function errorShapeProblem(status: number, contentType: string | undefined | null, body: string): string | null {
  if (!contentType?.startsWith('application/json')) return `content-type ${contentType ?? '(none)'}`;
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return 'the body is not JSON';
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return 'the body is not an object';
  if (Object.keys(parsed).join() !== 'error') return `top-level keys ${Object.keys(parsed).join()}`;
  const error = (parsed as { error: unknown }).error;
  if (typeof error !== 'object' || error === null) return 'error is not an object';
  const fields = error as Record<string, unknown>;
  if (Object.keys(fields).sort().join() !== 'code,details,message,status') {
    return `error keys ${Object.keys(fields).sort().join()}`;
  }
  if (fields.status !== status) return `error.status ${String(fields.status)} but HTTP ${status}`;
  const code = fields.code;
  if (typeof code !== 'string' || !(code in ERROR_STATUS)) return `unknown code ${String(code)}`;
  if (ERROR_STATUS[code as keyof typeof ERROR_STATUS] !== status) return `code ${code} does not go with ${status}`;
  if (typeof fields.message !== 'string' || fields.message.length === 0) return 'empty or missing message';
  if (!Array.isArray(fields.details)) return 'details is not an array';
  for (const detail of fields.details as unknown[]) {
    if (
      typeof detail !== 'object' ||
      detail === null ||
      typeof (detail as { message?: unknown }).message !== 'string'
    ) {
      return 'a detail without a message';
    }
  }
  return null;
}

/** SQLite's lock errors must never reach a client, whatever the wording around them. */
export const mentionsBusy = (body: string): boolean =>
  /SQLITE_BUSY|SQLITE_LOCKED|database is (locked|busy)|\bbusy\b/i.test(body);

/** A digest of every row of every table: equal fingerprints mean an unchanged store. */
export async function storeFingerprint(db: Db): Promise<string> {
  return createHash('sha256')
    .update(JSON.stringify(await snapshotDatabase(db)))
    .digest('hex');
}

export interface HttpResult {
  status: number;
  contentType: string | null;
  text: string;
  bytes: Buffer;
}

/** One request to a real server; the body is read whole, so a 201 counts only once it fully arrived. */
export async function http(
  baseUrl: string,
  token: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<HttpResult> {
  const headers: Record<string, string> = { Authorization: `Bearer ${token}` };
  let payload: string | Blob | undefined;
  if (Buffer.isBuffer(body)) {
    headers['Content-Type'] = 'application/zip';
    payload = new Blob([new Uint8Array(body)]);
  } else if (body !== undefined) {
    headers['Content-Type'] = 'application/json';
    payload = JSON.stringify(body);
  }
  const response = await fetch(baseUrl + path, { method, headers, body: payload });
  const bytes = Buffer.from(await response.arrayBuffer());
  return {
    status: response.status,
    contentType: response.headers.get('content-type'),
    text: bytes.toString('utf8'),
    bytes,
  };
}
