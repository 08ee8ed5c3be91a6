/**
 * GET /v1/scans/:id/evidence is streamed (src/main/evidence/evidence-json.ts): the bytes are the
 * ones the whole document serialized to before, the timeline is read a chunk at a time as the
 * client takes it, and a read that fails mid-way ends the response instead of the process.
 */
import { readFileSync } from 'node:fs';
import { get, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { evidenceJson } from '../../../src/main/evidence/evidence-json';
import { EVIDENCE_TYPES, type Evidence } from '../../../src/shared/api/evidence';
import { formatTimestamp } from '../../../src/shared/time';
import { expectError } from '../../helpers/assertions';
import {
  defaultEntry,
  insertEvidenceScan,
  insertOddScan,
  type StoredViolationSpec,
} from '../../helpers/evidence-fixtures';
import { createTestContext, type TestContext } from '../../helpers/test-app';

const FIXTURES = new URL('../../fixtures/evidence/', import.meta.url);
/** The variants the golden files were captured for, by the seed's in-memory implementation. */
const VARIANTS = [
  ['all', ''],
  ['timeline', '?types=timeline'],
  ['violations-breakdown', '?types=violations,token_breakdown'],
  ['breakdown', '?types=token_breakdown'],
] as const;

/** Three timeline chunks of 5000 and a partial one; three violation chunks of 1000. */
const LONG = 17_345;
/** About 20 MB of timeline JSON: several times what a loopback socket buffers. */
const FAILING = 300_000;
const LONG_VIOLATIONS: StoredViolationSpec[] = Array.from({ length: 2_500 }, (_, i) => ({
  id: `vio_L${i}`,
  rule: i % 2 === 0 ? 'action.blocked' : 'tokens.request_limit',
  severity: i % 3 === 0 ? 'high' : 'low',
  message: `entry ${i * 5}`,
  timeline_index: i % 7 === 0 ? null : i * 5,
}));

describe('GET /v1/scans/:id/evidence, streamed', () => {
  let ctx: TestContext;

  beforeAll(async () => {
    ctx = await createTestContext();
    await insertOddScan(ctx.db, 'scan_ODD', ctx.owner.id);
    await insertEvidenceScan(ctx.db, { id: 'scan_EMPTY', submittedBy: ctx.owner.id, entries: 0 });
    await insertEvidenceScan(ctx.db, {
      id: 'scan_LONG',
      submittedBy: ctx.owner.id,
      entries: LONG,
      tokenBreakdown: '{"input":5,"output":7}',
      violations: LONG_VIOLATIONS,
    });
  });
  afterAll(() => ctx.close());

  it.each(['ODD', 'EMPTY'])('writes the same bytes as the in-memory document did (scan %s)', async (name) => {
    for (const [label, query] of VARIANTS) {
      const response = await ctx.request({ method: 'GET', url: `/v1/scans/scan_${name}/evidence${query}` });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
      const golden = readFileSync(new URL(`${name.toLowerCase()}-${label}.evidence-golden`, FIXTURES));
      expect(response.body, label).toBe(golden.toString('utf8'));
      expect(response.rawPayload.equals(golden), label).toBe(true);
    }
  });

  it('streams a multi-chunk timeline and violations as the whole document, in the order of docs/contract/api.md#evidence', async () => {
    const timeline = Array.from({ length: LONG }, (_, seq) => {
      const entry = defaultEntry(seq);
      return { timestamp: formatTimestamp(entry.timestamp), action: entry.action, tokens: entry.tokens };
    });
    const expected: Evidence = {
      scan_id: 'scan_LONG',
      evidence: {
        request_count: LONG,
        total_tokens: timeline.reduce((sum, entry) => sum + entry.tokens, 0),
        timeline,
        token_breakdown: { input: 5, output: 7 },
        violations: LONG_VIOLATIONS,
      },
    };
    const full = await ctx.request({ method: 'GET', url: '/v1/scans/scan_LONG/evidence' });
    expect(full.statusCode).toBe(200);
    // Parsed, and byte for byte: plain values serialize one way.
    expect(full.json()).toEqual(expected);
    expect(full.body).toBe(JSON.stringify(expected));

    const { timeline: _t, ...withoutTimeline } = expected.evidence;
    const { violations: _v, token_breakdown: _b, ...timelineOnly } = expected.evidence;
    for (const [query, evidence] of [
      ['?types=timeline', timelineOnly],
      ['?types=violations,token_breakdown', withoutTimeline],
      [
        '?types=violations',
        { request_count: LONG, total_tokens: expected.evidence.total_tokens, violations: LONG_VIOLATIONS },
      ],
    ] as const) {
      const response = await ctx.request({ method: 'GET', url: `/v1/scans/scan_LONG/evidence${query}` });
      expect(response.statusCode).toBe(200);
      expect(response.body, query).toBe(JSON.stringify({ scan_id: 'scan_LONG', evidence }));
    }
  });

  it('still answers 404 for a scan the caller cannot see and 400 for an unknown type, before any byte', async () => {
    const other = await ctx.createUser('other');
    expectError(await ctx.request({ method: 'GET', url: '/v1/scans/scan_LONG/evidence', as: other }), 404, 'not_found');
    expectError(
      await ctx.request({ method: 'GET', url: '/v1/scans/scan_LONG/evidence?types=timeline,x' }),
      400,
      'validation_failed',
    );
  });

  it('reads the timeline only as fast as the reader takes it', async () => {
    const serialize = { tokenBreakdown: JSON.stringify, violation: JSON.stringify };
    const head = { scanId: 'scan_LONG', requestCount: LONG, totalTokens: 0, tokenBreakdown: '{}' };
    const stream = evidenceJson(ctx.db, { ...head, types: new Set(EVIDENCE_TYPES) }, serialize);
    let total = 0;
    for await (const chunk of evidenceJson(ctx.db, { ...head, types: new Set(EVIDENCE_TYPES) }, serialize)) {
      total += (chunk as Buffer).length;
    }
    // A reader that takes one piece and stops: what is buffered stays near one chunk of entries.
    await new Promise((resolve) => stream.once('readable', resolve));
    stream.read(1);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(total).toBeGreaterThan(1_000_000);
    // Bytes, not pieces: readableLength below counts what is buffered.
    expect(stream.readableObjectMode).toBe(false);
    expect(stream.readableLength).toBeLessThan(total / 3);
    stream.destroy();
  });

  it('ends the response unfinished, and keeps serving, when the store fails in the middle of the timeline', async () => {
    const failing = await createTestContext();
    try {
      await insertEvidenceScan(failing.db, { id: 'scan_FAIL', submittedBy: failing.owner.id, entries: FAILING });
      await failing.app.listen({ host: '127.0.0.1', port: 0 });
      const { port } = failing.app.server.address() as AddressInfo;
      const fetchOver = (path: string) =>
        new Promise<IncomingMessage>((resolve, reject) =>
          get(
            { host: '127.0.0.1', port, path, headers: { authorization: `Bearer ${failing.owner.token}` } },
            resolve,
          ).on('error', reject),
        );
      const response = await fetchOver('/v1/scans/scan_FAIL/evidence?types=timeline');
      expect(response.statusCode).toBe(200);
      const received: Buffer[] = [];
      const outcome = await new Promise<string>((resolve) => {
        response.on('data', (chunk: Buffer) => {
          // Not reading makes the server stop reading too (the socket's buffers hold far less
          // than the timeline); from then on every timeline read fails.
          if (received.push(chunk) === 1) {
            response.pause();
            void sql`DROP TABLE timeline_entries`.execute(failing.db);
            setTimeout(() => response.resume(), 100);
          }
        });
        response.on('end', () => resolve('end'));
        response.on('aborted', () => resolve('aborted'));
        response.on('error', () => resolve('error'));
      });
      expect(outcome).not.toBe('end');
      const body = Buffer.concat(received).toString('utf8');
      expect(body.startsWith(`{"scan_id":"scan_FAIL","evidence":{"request_count":${FAILING},`)).toBe(true);
      expect(body.length).toBeLessThan(FAILING * 60);
      expect(() => JSON.parse(body)).toThrow();
      // The server is still there.
      const health = await fetchOver('/healthz');
      expect(health.statusCode).toBe(200);
      health.resume();
    } finally {
      await failing.close();
    }
  });
});
