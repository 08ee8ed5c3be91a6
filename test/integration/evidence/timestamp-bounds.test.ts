/**
 * Every timestamp the server takes in can be written back in the contract's form
 * (`YYYY-MM-DDTHH:mm:ss.sssZ`, years 0000–9999): one that cannot is refused where it arrives,
 * naming its field (API) or its entry (imports), and nothing is stored.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, snapshotDatabase } from '../../helpers/assertions';
import { expectRefused, json, upstreamEvidence } from '../../helpers/import-fixtures';
import { submitScan } from '../../helpers/scan-fixtures';
import { createTestContext, type TestContext } from '../../helpers/test-app';
import { buildZip } from '../../helpers/zip-builder';

/** Instants outside 0000-01-01T00:00:00.000Z … 9999-12-31T23:59:59.999Z, in forms a parser might take. */
const OUTSIDE = [
  '+010000-01-01T00:00:00.000Z',
  '10000-01-01T00:00:00.000Z',
  '-000001-12-31T23:59:59.999Z',
  '9999-12-31T23:59:59.999-00:01',
  '9999-12-31T23:30:00-01:00',
  '0000-01-01T00:59:59.999+01:00',
];
const LAST = '9999-12-31T23:59:59.999Z';
const FIRST = '0000-01-01T00:00:00.000Z';

describe('timestamps are bounded to the years the contract can write', () => {
  let ctx: TestContext;
  let scanId: string;

  beforeAll(async () => {
    ctx = await createTestContext();
    scanId = (
      await submitScan(ctx, {
        tool: 't',
        action: 'a',
        tokens: 3,
        timeline: [
          { timestamp: FIRST, action: 'a', tokens: 1 },
          { timestamp: LAST, action: 'a', tokens: 2 },
        ],
      })
    ).id;
  });
  afterAll(async () => {
    await ctx.close();
  });

  it('accepts the first and last instants, and buckets over them stay in the form', async () => {
    const response = await ctx.request({ method: 'GET', url: `/v1/scans/${scanId}/evidence/timeline/buckets?n=5` });
    expect(response.statusCode, response.body).toBe(200);
    const { buckets } = response.json() as { buckets: { start: string; end: string; count: number }[] };
    expect(buckets.map((b) => b.count)).toEqual([1, 1]);
    expect(buckets[0]!.start).toBe(FIRST);
    expect(buckets.at(-1)!.end).toBe(LAST);
  });

  it('refuses a submitted timeline entry outside them, naming it', async () => {
    const before = await snapshotDatabase(ctx.db);
    for (const timestamp of OUTSIDE) {
      const response = await ctx.request({
        method: 'POST',
        url: '/v1/scans',
        payload: {
          tool: 't',
          action: 'a',
          tokens: 2,
          timeline: [
            { timestamp: FIRST, action: 'a', tokens: 1 },
            { timestamp, action: 'a', tokens: 1 },
          ],
        },
      });
      const { details } = expectError(response, 400, 'validation_failed');
      expect(
        details.map((d) => d.field),
        timestamp,
      ).toEqual(['timeline.1.timestamp']);
    }
    expect(await snapshotDatabase(ctx.db)).toEqual(before);
  });

  it('refuses since and until outside them, naming the parameter', async () => {
    for (const url of ['/v1/scans', `/v1/scans/${scanId}/evidence/timeline/buckets`]) {
      for (const field of ['since', 'until']) {
        for (const value of OUTSIDE) {
          const response = await ctx.request({ method: 'GET', url: `${url}?${field}=${encodeURIComponent(value)}` });
          const { details } = expectError(response, 400, 'validation_failed');
          expect(
            details.map((d) => d.field),
            `${url} ${field}=${value}`,
          ).toEqual([field]);
        }
      }
    }
  });

  it('refuses an imported timeline entry or scan created_at outside them, naming the entry', async () => {
    for (const timestamp of OUTSIDE) {
      const timeline = [
        { timestamp: FIRST, action: 'a', tokens: 1 },
        { timestamp, action: 'a', tokens: 1 },
      ];
      await expectRefused(
        ctx,
        buildZip([{ name: 'e/evidence.json', data: json(upstreamEvidence('x', timeline)) }]),
        'e/evidence.json',
        /timestamp/,
      );
      const evidence = json(upstreamEvidence('y', [{ timestamp: FIRST, action: 'a', tokens: 1 }]));
      await expectRefused(
        ctx,
        buildZip([
          { name: 'e/evidence-y.json', data: evidence },
          { name: 'e/scan-y.json', data: json({ id: 'y', created_at: timestamp, tool: 't', tokens: 1 }) },
        ]),
        'e/scan-y.json',
        /created_at/,
      );
    }
  });
});
