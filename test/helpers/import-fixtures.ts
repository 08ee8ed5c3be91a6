import { createHash } from 'node:crypto';
import { expect } from 'vitest';
import type { ImportResult } from '../../src/shared/api/evidence';
import type { Manifest } from '../../src/shared/evidence-package';
import { expectError, snapshotDatabase } from './assertions';
import type { TestContext } from './test-app';
import { buildZip } from './zip-builder';

// Packages for import tests, and the two outcomes they assert: imported, or refused with the
// store untouched.

export const MiB = 1024 * 1024;
export const IMPORTS_URL = '/v1/evidence/imports';

export const sha256 = (data: Buffer): string => createHash('sha256').update(data).digest('hex');
export const json = (value: unknown): Buffer => Buffer.from(JSON.stringify(value, null, 2));

/** A format-1 package from its files, with a manifest computed for them (last, as ours are). */
export function format1(files: Map<string, Buffer>, scans: string[], tamper?: (manifest: Manifest) => void): Buffer {
  const entries = [...files].filter(([name]) => name !== 'manifest.json');
  const manifest: Manifest = {
    format: 'scandesk.evidence',
    version: 1,
    exported_at: '2026-11-21T04:16:15.470Z',
    generator: 'test',
    scans,
    files: entries.map(([path, data]) => ({ path, bytes: data.length, sha256: sha256(data) })),
  };
  tamper?.(manifest);
  return buildZip([...entries, ['manifest.json', json(manifest)] as const].map(([name, data]) => ({ name, data })));
}

export function timelineOf(n: number, start = Date.UTC(2026, 10, 1), tokens = (i: number) => (i % 7) * 10 + 1) {
  return Array.from({ length: n }, (_, i) => ({
    timestamp: new Date(start + i * 1000).toISOString(),
    action: i % 2 === 0 ? 'read' : 'edit',
    tokens: tokens(i),
  }));
}

/** The upstream get-evidence shape for a timeline, counts agreeing. */
export function upstreamEvidence(scanId: string, timeline: ReturnType<typeof timelineOf>, extra: object = {}) {
  return {
    scan_id: scanId,
    evidence: {
      request_count: timeline.length,
      total_tokens: timeline.reduce((sum, entry) => sum + entry.tokens, 0),
      timeline,
      ...extra,
    },
  };
}

export const postZip = (ctx: TestContext, payload: Buffer, contentType = 'application/zip') =>
  ctx.request({ method: 'POST', url: IMPORTS_URL, headers: { 'content-type': contentType }, payload });

export async function expectImported(
  ctx: TestContext,
  payload: Buffer,
  expected: Partial<ImportResult>,
): Promise<void> {
  const response = await postZip(ctx, payload);
  expect(response.statusCode, response.body).toBe(201);
  expect(response.json()).toEqual({ imported: [], unchanged: [], ids: {}, ...expected });
}

export async function expectRefused(
  ctx: TestContext,
  payload: Buffer,
  /** The entry the first detail names; a pattern where several could be first to cross a limit. */
  entry: string | RegExp | undefined,
  message: RegExp,
  status = 400,
  code: 'invalid_package' | 'conflict' | 'payload_too_large' = 'invalid_package',
): Promise<void> {
  const before = await snapshotDatabase(ctx.db);
  const error = expectError(await postZip(ctx, payload), status, code);
  expect(error.details.length).toBeGreaterThan(0);
  if (entry instanceof RegExp) expect(error.details[0]!.entry).toMatch(entry);
  else expect(error.details[0]!.entry).toBe(entry);
  expect(`${error.message} ${error.details.map((detail) => detail.message).join(' ')}`).toMatch(message);
  expect(await snapshotDatabase(ctx.db)).toEqual(before);
}

/** A package in the upstream shapes (no manifest) holding one two-entry scan `id`. */
export function oneScanPackage(id: string): Buffer {
  const timeline = [
    { timestamp: '2026-10-03T10:00:00.000Z', action: 'read', tokens: 5 },
    { timestamp: '2026-10-03T10:00:02.000Z', action: 'edit', tokens: 7 },
  ];
  return buildZip([
    {
      name: `evidence-${id}.json`,
      data: Buffer.from(JSON.stringify({ scan_id: id, evidence: { request_count: 2, total_tokens: 12, timeline } })),
    },
  ]);
}
