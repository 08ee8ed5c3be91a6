import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { derivedScanId } from '../../../../src/main/evidence/import/import-ids';
import {
  STAGE_ROWS,
  StagedTimelineWriter,
  sweepStagedTimelines,
} from '../../../../src/main/evidence/import/staged-timelines.repository';
import { deleteUser } from '../../../../src/main/users/users.repository';
import type { ImportResult } from '../../../../src/shared/api/evidence';
import { expectError } from '../../../helpers/assertions';
import { createTestContext, type TestContext } from '../../../helpers/test-app';
import { entriesWithScan } from '../../../helpers/timeline-rows';
import { buildZip } from '../../../helpers/zip-builder';

// A long import writes its timeline in steps that other writers get the store between, and
// nobody sees any of it before the whole package is accepted.

const URL = '/v1/evidence/imports';
const ENTRIES = 12 * STAGE_ROWS;

function evidenceJson(id: string, entries: number, claimed?: number): Buffer {
  const start = Date.UTC(2026, 9, 1);
  const timeline = Array.from({ length: entries }, (_, i) => ({
    timestamp: new Date(start + i * 10).toISOString(),
    action: i % 2 ? 'read' : 'edit',
    tokens: i % 7,
  }));
  const total = timeline.reduce((sum, entry) => sum + entry.tokens, 0);
  return Buffer.from(
    JSON.stringify({ scan_id: id, evidence: { request_count: entries, total_tokens: claimed ?? total, timeline } }),
  );
}

const postZip = (ctx: TestContext, payload: Buffer) =>
  ctx.request({ method: 'POST', url: URL, headers: { 'content-type': 'application/zip' }, payload });

const staged = async (ctx: TestContext): Promise<number> => {
  const row = await ctx.db
    .selectFrom('timelines')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('scan_id', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
};

async function until(condition: () => Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

describe('evidence import in steps', () => {
  let ctx: TestContext;

  beforeAll(async () => {
    ctx = await createTestContext();
  });

  afterAll(() => ctx?.close());

  it('lets another user submit while a long import runs, and shows nothing of the import until it is whole', async () => {
    const other = await ctx.createUser('submitter');
    const id = derivedScanId(ctx.owner.id, 'staging_long');
    let importDone = false;
    const importing = postZip(ctx, buildZip([{ name: 'long.json', data: evidenceJson('staging_long', ENTRIES) }])).then(
      (response) => {
        importDone = true;
        return response;
      },
    );
    await until(async () => importDone || (await staged(ctx)) > 0);
    expect(importDone).toBe(false);

    // Half-written: the scan is not there, not listed, not counted.
    expectError(await ctx.request({ method: 'GET', url: `/v1/scans/${id}` }), 404, 'not_found');
    const list = await ctx.request({ method: 'GET', url: '/v1/scans' });
    expect((list.json() as { total: number }).total).toBe(0);

    const submitted = await ctx.request({
      method: 'POST',
      url: '/v1/scans',
      as: other,
      payload: { tool: 'cursor', action: 'edit', tokens: 3 },
    });
    expect(submitted.statusCode, submitted.body).toBe(201);
    // Stored between two of the import's steps, not after the whole import.
    expect(importDone).toBe(false);

    const response = await importing;
    expect(response.statusCode, response.body).toBe(201);
    expect((response.json() as ImportResult).imported).toEqual([id]);
    expect(await staged(ctx)).toBe(0);
    const stored = await entriesWithScan(ctx.db).where('timelines.scan_id', '=', id).execute();
    expect(stored).toHaveLength(ENTRIES);
    expect(stored.map((entry) => Number(entry.seq)).sort((x, y) => x - y)).toEqual([...Array(ENTRIES).keys()]);
  });

  it('deletes what it staged when the package is refused after a long timeline', async () => {
    const before = await ctx.db
      .selectFrom('timeline_entries')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    const zip = buildZip([
      { name: 'long.json', data: evidenceJson('staging_refused_long', 3 * STAGE_ROWS) },
      { name: 'bad.json', data: evidenceJson('staging_refused_bad', 10, 1_000_000) },
    ]);
    expectError(await postZip(ctx, zip), 400, 'invalid_package');
    expect(await staged(ctx)).toBe(0);
    const after = await ctx.db
      .selectFrom('timeline_entries')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
  });

  // Entries and pyramid cells have no foreign key on PostgreSQL (migration
  // 2026_11_29_120000_cascade_bulk_rows_by_trigger): what the key guaranteed, on both backends.
  it('writes no entry once its staged timeline is gone, and fails the step', async () => {
    const entries = Array.from({ length: STAGE_ROWS + 10 }, (_, i) => ({ timestamp: i, action: 'a', tokens: 1 }));
    const writer = new StagedTimelineWriter(ctx.db);
    await writer.write(entries.slice(0, STAGE_ROWS));
    await writer.settled();
    const id = writer.id!;
    // Swept as a stopped import's would be, between two steps.
    expect(await sweepStagedTimelines(ctx.db, -60_000)).toBe(1);
    await writer.write(entries.slice(STAGE_ROWS));
    await expect(writer.settled()).rejects.toThrow(`staged timeline ${id} is gone`);
    const left = await ctx.db
      .selectFrom('timeline_entries')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('timeline_id', '=', id)
      .executeTakeFirstOrThrow();
    expect(Number(left.n)).toBe(0);
  });

  it("deletes a stored scan's entries and pyramid cells with its owner", async () => {
    const owner = await ctx.createUser('leaving');
    const response = await ctx.request({
      method: 'POST',
      url: URL,
      as: owner,
      headers: { 'content-type': 'application/zip' },
      payload: buildZip([{ name: 'long.json', data: evidenceJson('staging_leaving', 2 * STAGE_ROWS) }]),
    });
    expect(response.statusCode, response.body).toBe(201);
    const [scanId] = (response.json() as ImportResult).imported;
    const timeline = await ctx.db
      .selectFrom('timelines')
      .select('id')
      .where('scan_id', '=', scanId!)
      .executeTakeFirstOrThrow();
    const count = async () => {
      const entries = await ctx.db
        .selectFrom('timeline_entries')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('timeline_id', '=', timeline.id)
        .executeTakeFirstOrThrow();
      const cells = await ctx.db
        .selectFrom('timeline_cells')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('scan_id', '=', scanId!)
        .executeTakeFirstOrThrow();
      return [Number(entries.n), Number(cells.n) > 0];
    };
    expect(await count()).toEqual([2 * STAGE_ROWS, true]);
    await deleteUser(ctx.db, owner.id);
    expect(await count()).toEqual([0, false]);
  });

  it("sweeps a stopped import's staged timelines and their entries, and keeps a running one's", async () => {
    const stage = async (stagedAt: number, entries: number): Promise<number> => {
      const row = await ctx.db
        .insertInto('timelines')
        .values({ scan_id: null, staged_at: stagedAt })
        .returning('id')
        .executeTakeFirstOrThrow();
      const id = Number(row.id);
      await ctx.db
        .insertInto('timeline_entries')
        .values(
          Array.from({ length: entries }, (_, seq) => ({
            timeline_id: id,
            seq,
            timestamp: seq,
            action: 'a',
            tokens: 1,
          })),
        )
        .execute();
      return id;
    };
    const crashed = await stage(Date.now() - 60 * 60_000, 250);
    const running = await stage(Date.now(), 10);
    expect(await sweepStagedTimelines(ctx.db)).toBe(1);
    const left = await ctx.db.selectFrom('timelines').select('id').where('scan_id', 'is', null).execute();
    expect(left.map((row) => Number(row.id))).toEqual([running]);
    const entries = await ctx.db
      .selectFrom('timeline_entries')
      .select(['timeline_id', (eb) => eb.fn.countAll<number>().as('n')])
      .where('timeline_id', 'in', [crashed, running])
      .groupBy('timeline_id')
      .execute();
    expect(entries.map((row) => [Number(row.timeline_id), Number(row.n)])).toEqual([[running, 10]]);
    expect(await sweepStagedTimelines(ctx.db, 0)).toBe(1);
    expect(await staged(ctx)).toBe(0);
  });
});
