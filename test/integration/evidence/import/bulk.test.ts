import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { derivedScanId } from '../../../../src/main/evidence/import/import-ids';
import type { Evidence, ImportResult } from '../../../../src/shared/api/evidence';
import type { Scan } from '../../../../src/shared/api/scans';
import { expectError, snapshotDatabase } from '../../../helpers/assertions';
import { submitScan } from '../../../helpers/scan-fixtures';
import { createTestContext, type TestContext } from '../../../helpers/test-app';
import { buildZip } from '../../../helpers/zip-builder';

// The import checks and writes each timeline in one pass, in multi-row chunks: lengths around
// and across chunk sizes, several scans in one package, and refusals (a conflict, a bad count)
// found after a long timeline was already written in the same transaction.

const URL = '/v1/evidence/imports';
const LENGTHS = [1, 99, 100, 101, 250, 1234];

function timelineOf(n: number, start: number, actions = ['read', 'edit', 'tool.call']) {
  return Array.from({ length: n }, (_, i) => ({
    timestamp: new Date(start + i * 1000).toISOString(),
    action: actions[i % actions.length]!,
    tokens: (i * 37) % 1000,
  }));
}

const sum = (timeline: { tokens: number }[]): number => timeline.reduce((total, entry) => total + entry.tokens, 0);

const postZip = (ctx: TestContext, payload: Buffer) =>
  ctx.request({ method: 'POST', url: URL, headers: { 'content-type': 'application/zip' }, payload });

async function evidenceOf(ctx: TestContext, id: string): Promise<Evidence> {
  const response = await ctx.request({ method: 'GET', url: `/v1/scans/${id}/evidence` });
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as Evidence;
}

describe('evidence import: chunked timeline writes', () => {
  let source: TestContext;
  let target: TestContext;
  const scans: Scan[] = [];
  let packageZip: Buffer;

  beforeAll(async () => {
    source = await createTestContext();
    target = await createTestContext();
    for (const [i, length] of LENGTHS.entries()) {
      const timeline = timelineOf(length, Date.UTC(2026, 10, 1 + i));
      scans.push(await submitScan(source, { tool: 'cursor', action: 'edit', tokens: sum(timeline), timeline }));
    }
    const response = await source.request({
      method: 'POST',
      url: '/v1/evidence/exports',
      payload: { scan_ids: scans.map((scan) => scan.id) },
    });
    expect(response.statusCode, response.body).toBe(200);
    packageZip = response.rawPayload;
  });

  afterAll(async () => {
    await source?.close();
    await target?.close();
  });

  it('imports several timelines of lengths around the chunk size, each complete and in order', async () => {
    const response = await postZip(target, packageZip);
    expect(response.statusCode, response.body).toBe(201);
    // Another user's scans: stored under the ids derived for the importer.
    const stored = scans.map((scan) => derivedScanId(target.owner.id, scan.id));
    expect((response.json() as ImportResult).imported.sort()).toEqual([...stored].sort());
    for (const [i, scan] of scans.entries()) {
      expect(await evidenceOf(target, stored[i]!)).toEqual({
        ...(await evidenceOf(source, scan.id)),
        scan_id: stored[i],
      });
    }
    const rows = await target.db
      .selectFrom('timeline_entries')
      .innerJoin('timelines', 'timelines.id', 'timeline_entries.timeline_id')
      .select(['scan_id', (eb) => eb.fn.countAll<number>().as('n'), (eb) => eb.fn.max('seq').as('last')])
      .groupBy('scan_id')
      .execute();
    for (const [i, id] of stored.entries()) {
      expect(rows.find((row) => row.scan_id === id)).toEqual({ scan_id: id, n: LENGTHS[i], last: LENGTHS[i]! - 1 });
    }
    // Again: every scan is there already, identical.
    const again = await postZip(target, packageZip);
    expect(again.json()).toEqual({
      imported: [],
      unchanged: stored,
      ids: Object.fromEntries(scans.map((scan, i) => [scan.id, stored[i]])),
    });
  });

  const long = timelineOf(1234, Date.UTC(2026, 9, 1));
  const clash = timelineOf(3, Date.UTC(2026, 9, 2));
  const evidence = (id: string, timeline: ReturnType<typeof timelineOf>, claimed = sum(timeline)) =>
    Buffer.from(
      JSON.stringify({ scan_id: id, evidence: { request_count: timeline.length, total_tokens: claimed, timeline } }),
    );

  it('keeps nothing of a long timeline written before a bad count found at its end', async () => {
    const zip = buildZip([
      { name: 'long.json', data: evidence('bulk_new_long', long) },
      { name: 'bad.json', data: evidence('bulk_bad', long, sum(long) + 1) },
    ]);
    const before = await snapshotDatabase(target.db);
    const response = expectError(await postZip(target, zip), 400, 'invalid_package');
    expect(JSON.stringify(response.details)).toContain('bad.json');
    expect(await snapshotDatabase(target.db)).toEqual(before);
  });

  it('answers 400, not 409, for a package that conflicts and is also invalid, whatever comes first', async () => {
    const zip = buildZip([
      { name: 'clash.json', data: evidence(scans[0]!.id, clash) },
      { name: 'bad.json', data: evidence('bulk_bad', clash, 1) },
    ]);
    const before = await snapshotDatabase(target.db);
    expectError(await postZip(target, zip), 400, 'invalid_package');
    expect(await snapshotDatabase(target.db)).toEqual(before);
  });

  it('keeps nothing of a long timeline written before a conflict in the same package', async () => {
    const existing = scans[0]!;
    const zip = buildZip([
      { name: 'long.json', data: evidence('bulk_new_long', long) },
      { name: 'clash.json', data: evidence(existing.id, clash) },
    ]);
    const before = await snapshotDatabase(target.db);
    expectError(await postZip(target, zip), 409, 'conflict');
    expect(await snapshotDatabase(target.db)).toEqual(before);

    // The store still takes the long timeline on its own afterwards.
    const alone = await postZip(target, buildZip([{ name: 'long.json', data: evidence('bulk_new_long', long) }]));
    expect(alone.statusCode, alone.body).toBe(201);
    expect((await evidenceOf(target, derivedScanId(target.owner.id, 'bulk_new_long'))).evidence.timeline).toEqual(long);
  });
});
