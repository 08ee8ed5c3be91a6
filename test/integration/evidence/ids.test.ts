/**
 * The id rule (src/shared/ids.ts) where ids meet paths, archives and file names: package scan and
 * violation ids outside it are refused, path parameters that cannot be ids are 404, and download
 * names are encoded whatever the id holds.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, snapshotDatabase } from '../../helpers/assertions';
import { insertScans, submitScan } from '../../helpers/scan-fixtures';
import { createTestContext, type TestContext } from '../../helpers/test-app';
import { buildZip } from '../../helpers/zip-builder';

const json = (value: unknown): Buffer => Buffer.from(JSON.stringify(value, null, 2));
const sha256 = (data: Buffer): string => createHash('sha256').update(data).digest('hex');

/** The ids of the issue, and the other ways an id can fail the rule. */
const BAD_IDS: [string, string][] = [
  ['a quote', 'a"b'],
  ['RTL override U+202E', 'scan_\u202Egpj.exe'],
  ['CJK', 'scan_漢字'],
  ['dot-dot', '..'],
  ['dot', '.'],
  ['a slash', 'a/b'],
  ['a space', 'a b'],
  ['a percent sign', 'a%2e'],
  ['101 characters', 'x'.repeat(101)],
];

const TIMELINE = [{ timestamp: '2026-11-01T10:00:00.000Z', action: 'read', tokens: 5 }];

function upstream(scanId: string, violationId = 'vio_ok') {
  return {
    scan_id: scanId,
    evidence: {
      request_count: 1,
      total_tokens: 5,
      timeline: TIMELINE,
      violations: [{ id: violationId, rule: 'r', severity: 'low', message: 'm', timeline_index: 0 }],
    },
  };
}

/** A format-1 package whose manifest lists `id` (its files named after a safe stand-in). */
function format1Listing(id: string): Buffer {
  const files = new Map<string, Buffer>([
    [
      'scans/s/scan.json',
      json({
        id: 's',
        created_at: TIMELINE[0]!.timestamp,
        tool: 't',
        action: 'read',
        tokens: 5,
        status: 'completed',
        violations: [],
      }),
    ],
    [
      'scans/s/evidence.json',
      json({ scan_id: 's', evidence: { request_count: 1, total_tokens: 5, token_breakdown: {}, violations: [] } }),
    ],
    ['scans/s/timeline.jsonl', Buffer.from(`${JSON.stringify(TIMELINE[0])}\n`)],
  ]);
  const manifest = {
    format: 'scandesk.evidence',
    version: 1,
    exported_at: '2026-11-21T04:16:15.470Z',
    generator: 'test',
    scans: [id],
    files: [...files].map(([path, data]) => ({ path, bytes: data.length, sha256: sha256(data) })),
  };
  return buildZip([
    ...[...files].map(([name, data]) => ({ name, data })),
    { name: 'manifest.json', data: json(manifest) },
  ]);
}

describe('ids in packages, paths and download names', () => {
  let ctx: TestContext;
  let scanId: string;

  beforeAll(async () => {
    ctx = await createTestContext();
    scanId = (await submitScan(ctx, { tool: 'cursor', action: 'chat', tokens: 3 })).id;
    // Scans stored before the rule, straight in the store: they must never make a 500.
    await insertScans(ctx.db, [
      { id: 'a"b', created_at: Date.UTC(2026, 10, 1), submitted_by: ctx.owner.id },
      { id: 'scan_\u202Egpj.exe', created_at: Date.UTC(2026, 10, 1), submitted_by: ctx.owner.id },
      { id: 'scan_漢字', created_at: Date.UTC(2026, 10, 1), submitted_by: ctx.owner.id },
      { id: '..', created_at: Date.UTC(2026, 10, 1), submitted_by: ctx.owner.id },
    ]);
  });
  afterAll(() => ctx.close());

  const postZip = (payload: Buffer) =>
    ctx.request({
      method: 'POST',
      url: '/v1/evidence/imports',
      headers: { 'content-type': 'application/zip' },
      payload,
    });

  async function expectRefused(payload: Buffer, entry: string, field: RegExp): Promise<void> {
    const before = await snapshotDatabase(ctx.db);
    const error = expectError(await postZip(payload), 400, 'invalid_package');
    expect(error.details[0]!.entry).toBe(entry);
    expect(error.details.map((detail) => detail.message).join(' ')).toMatch(field);
    expect(await snapshotDatabase(ctx.db)).toEqual(before);
  }

  it.each(BAD_IDS)('refuses a package scan id with %s, naming the entry', async (_label, id) => {
    await expectRefused(buildZip([{ name: 'e.json', data: json(upstream(id)) }]), 'e.json', /^scan_id /);
    await expectRefused(format1Listing(id), 'manifest.json', /^scans\.0 /);
  });

  it.each(BAD_IDS)('refuses a package violation id with %s, naming the entry', async (_label, id) => {
    await expectRefused(
      buildZip([{ name: 'e.json', data: json(upstream('scan_fine', id)) }]),
      'e.json',
      /^evidence\.violations\.0\.id /,
    );
  });

  it('accepts ids at the edges of the rule', async () => {
    for (const [i, id] of ['a', 'Up.stream:ID-1_x', 'x'.repeat(100), '...'].entries()) {
      const response = await postZip(buildZip([{ name: 'e.json', data: json(upstream(id, `v${i}`)) }]));
      expect(response.statusCode, `${id}: ${response.body}`).toBe(201);
    }
  });

  it.each(BAD_IDS.filter(([, id]) => id !== '..' && id !== '.' && id !== 'a/b'))(
    'answers 404 to a path id with %s, even when a scan stored before the rule has it',
    async (_label, id) => {
      const segment = encodeURIComponent(id);
      for (const url of [
        `/v1/scans/${segment}`,
        `/v1/scans/${segment}/evidence`,
        `/v1/scans/${segment}/evidence/download`,
        `/v1/scans/${segment}/evidence/timeline`,
        `/v1/scans/${segment}/evidence/timeline/buckets`,
        `/v1/organizations/${segment}`,
      ]) {
        const error = expectError(await ctx.request({ method: 'GET', url }), 404, 'not_found');
        // The refused id is not echoed back.
        expect(JSON.stringify(error)).not.toContain(JSON.stringify(id).slice(1, -1));
      }
    },
  );

  it('never answers 500 to a dot-dot path id, nor reaches the scan stored under it', async () => {
    for (const segment of ['%2E%2E', '%2e%2e', '.%2E', '..']) {
      const response = await ctx.request({ method: 'GET', url: `/v1/scans/${segment}/evidence/download` });
      // The path layer refuses it (400) or resolves it to a route that does not exist (404).
      expect([400, 404], response.body).toContain(response.statusCode);
      expectError(response, response.statusCode, response.statusCode === 400 ? 'validation_failed' : 'not_found');
    }
  });

  it.each(BAD_IDS)('refuses an export of an id with %s as a bad request', async (_label, id) => {
    const error = expectError(
      await ctx.request({ method: 'POST', url: '/v1/evidence/exports', payload: { scan_ids: [scanId, id] } }),
      400,
      'validation_failed',
    );
    expect(error.details[0]!.field).toBe('scan_ids.1');
  });

  it('names downloads in Content-Disposition (an ASCII name needs no filename*)', async () => {
    const download = await ctx.request({ method: 'GET', url: `/v1/scans/${scanId}/evidence/download` });
    expect(download.statusCode).toBe(200);
    const name = `scandesk-evidence-${scanId}.zip`;
    expect(download.headers['content-disposition']).toBe(`attachment; filename="${name}"`);
    const exported = await ctx.request({
      method: 'POST',
      url: '/v1/evidence/exports',
      payload: { scan_ids: [scanId] },
    });
    expect(exported.statusCode).toBe(200);
    expect(exported.headers['content-disposition']).toMatch(
      // Named as the CSV export is: the date and time it was made, not epoch milliseconds.
      /^attachment; filename="scandesk-evidence-\d{4}-\d\d-\d\d-\d{6}\.zip"$/,
    );
  });
});
