/**
 * An imported scan keeps the id it had in its package (and what made the package, where it
 * says): its importer sees it on the scan and finds the scan by it with `GET /v1/scans?package_id=`.
 * Nobody else ever resolves it, not even a user who imported the same package.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { derivedScanId } from '../../../../src/main/evidence/import/import-ids';
import type { Scan, ScanList } from '../../../../src/shared/api/scans';
import { expectError } from '../../../helpers/assertions';
import { format1, json, oneScanPackage } from '../../../helpers/import-fixtures';
import { createTestContext, type TestContext, type TestUser } from '../../../helpers/test-app';
import { unzip } from '../../../helpers/zip-builder';

const UPSTREAM_ID = 'up-2026:0042';

describe('package ids of imported scans', () => {
  let ctx: TestContext;
  let bea: TestUser;
  let cai: TestUser;
  let dan: TestUser;

  beforeAll(async () => {
    ctx = await createTestContext();
    bea = await ctx.createUser('bea');
    cai = await ctx.createUser('cai');
    dan = await ctx.createUser('dan');
  });

  afterAll(async () => {
    await ctx.close();
  });

  const importAs = (as: TestUser, zip: Buffer) =>
    ctx.request({
      as,
      method: 'POST',
      url: '/v1/evidence/imports',
      headers: { 'content-type': 'application/zip' },
      payload: zip,
    });

  const list = async (as: TestUser, query: string) => {
    const response = await ctx.request({ as, method: 'GET', url: `/v1/scans?${query}` });
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as ScanList;
  };

  const scan = async (as: TestUser, id: string) => {
    const response = await ctx.request({ as, method: 'GET', url: `/v1/scans/${id}` });
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as Scan;
  };

  it('an upstream package: the scan keeps its package id, with no origin, and its importer finds it by that id', async () => {
    const response = await importAs(bea, oneScanPackage(UPSTREAM_ID));
    expect(response.statusCode, response.body).toBe(201);
    const stored = derivedScanId(bea.id, UPSTREAM_ID);
    expect(response.json()).toMatchObject({ imported: [stored] });

    const shown = await scan(bea, stored);
    expect(shown.package_id).toBe(UPSTREAM_ID);
    expect(shown).not.toHaveProperty('package_origin');

    const found = await list(bea, `package_id=${encodeURIComponent(UPSTREAM_ID)}`);
    expect(found.total).toBe(1);
    expect(found.scans.map((row) => row.id)).toEqual([stored]);
    // The other filters still apply beside it.
    expect((await list(bea, `package_id=${encodeURIComponent(UPSTREAM_ID)}&tool=cursor`)).total).toBe(0);
    expect((await list(bea, 'package_id=another')).total).toBe(0);
  });

  it("another user never resolves someone else's package id, not even after importing the same package", async () => {
    const query = `package_id=${encodeURIComponent(UPSTREAM_ID)}`;
    expect(await list(cai, query)).toEqual({ scans: [], total: 0 });
    // The workspace owner sees nothing of it either.
    expect(await list(ctx.owner, query)).toEqual({ scans: [], total: 0 });

    const response = await importAs(cai, oneScanPackage(UPSTREAM_ID));
    expect(response.statusCode, response.body).toBe(201);
    const own = derivedScanId(cai.id, UPSTREAM_ID);
    const found = await list(cai, query);
    expect(found.scans.map((row) => row.id)).toEqual([own]);
    expect(found.total).toBe(1);
    expect((await list(bea, query)).scans.map((row) => row.id)).toEqual([derivedScanId(bea.id, UPSTREAM_ID)]);
    // Bea's copy is not Cai's to read at all.
    expect(
      (await ctx.request({ as: cai, method: 'GET', url: `/v1/scans/${derivedScanId(bea.id, UPSTREAM_ID)}` }))
        .statusCode,
    ).toBe(404);
  });

  it("a format-1 package: the manifest's generator is kept as the origin", async () => {
    const submitted = await ctx.request({
      as: dan,
      method: 'POST',
      url: '/v1/scans',
      payload: { tool: 'gemini', action: 'chat', tokens: 12 },
    });
    expect(submitted.statusCode, submitted.body).toBe(201);
    const original = submitted.json() as Scan;
    expect(original).not.toHaveProperty('package_id');
    const download = await ctx.request({ as: dan, method: 'GET', url: `/v1/scans/${original.id}/evidence/download` });
    // Dan's own scan is compared, not stored again: a package id is only kept with a stored copy.
    expect((await importAs(dan, download.rawPayload)).json()).toMatchObject({ unchanged: [original.id] });

    const response = await importAs(bea, download.rawPayload);
    expect(response.statusCode, response.body).toBe(201);
    const stored = derivedScanId(bea.id, original.id);
    const shown = await scan(bea, stored);
    expect(shown.package_id).toBe(original.id);
    expect(shown.package_origin).toMatch(/^scandesk /);
    expect((await list(bea, `package_id=${original.id}`)).scans.map((row) => row.id)).toEqual([stored]);
    // The id Dan's scan has is Dan's own: the filter finds imports, not scans under that id.
    expect(await list(dan, `package_id=${original.id}`)).toEqual({ scans: [], total: 0 });

    // Bea's export of her copy reads as before (no package fields), and imports back unchanged.
    const again = await ctx.request({ as: bea, method: 'GET', url: `/v1/scans/${stored}/evidence/download` });
    const files = await unzip(again.rawPayload);
    const document = JSON.parse(files.get(`scans/${stored}/scan.json`)!.toString()) as Scan;
    expect(document).not.toHaveProperty('package_id');
    expect((await importAs(bea, again.rawPayload)).json()).toMatchObject({ unchanged: [stored] });
  });

  it('a generator that is no name (control characters) is not kept; the package is still imported', async () => {
    const files = new Map([
      [
        'scans/gen_1/scan.json',
        json({
          id: 'gen_1',
          created_at: '2026-11-02T08:00:00.000Z',
          tool: 'cursor',
          action: 'read',
          tokens: 9,
          status: 'completed',
          violations: [],
        }),
      ],
      ['scans/gen_1/evidence.json', json({ scan_id: 'gen_1', evidence: { request_count: 1, total_tokens: 9 } })],
      [
        'scans/gen_1/timeline.jsonl',
        Buffer.from(`${JSON.stringify({ timestamp: '2026-11-02T08:00:00.000Z', action: 'read', tokens: 9 })}\n`),
      ],
    ]);
    const zip = format1(files, ['gen_1'], (manifest) => {
      manifest.generator = 'evil\u001b]0;title\u0007';
    });
    const response = await importAs(bea, zip);
    expect(response.statusCode, response.body).toBe(201);
    const shown = await scan(bea, derivedScanId(bea.id, 'gen_1'));
    expect(shown.package_id).toBe('gen_1');
    expect(shown).not.toHaveProperty('package_origin');
  });

  it('a package_id outside the id rule is refused like any bad query value', async () => {
    const response = await ctx.request({ as: bea, method: 'GET', url: '/v1/scans?package_id=a%2Fb' });
    expect(expectError(response, 400, 'validation_failed').details[0]!.field).toBe('package_id');
  });
});
