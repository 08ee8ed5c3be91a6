import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { CopiedTimelineWriter } from '../../../../src/main/evidence/import/copied-timeline-writer';
import { derivedScanId } from '../../../../src/main/evidence/import/import-ids';
import { stagedTimelineWriter } from '../../../../src/main/evidence/import/staged-timeline-writer';
import { STAGE_ROWS, sweepStagedTimelines } from '../../../../src/main/evidence/import/staged-timelines.repository';
import { SteppedTimelineWriter } from '../../../../src/main/evidence/import/stepped-timeline-writer';
import { deleteUser } from '../../../../src/main/users/users.repository';
import type { ImportResult } from '../../../../src/shared/api/evidence';
import { expectError } from '../../../helpers/assertions';
import { createTestContext, type TestContext } from '../../../helpers/test-app';
import { onPostgres } from '../../../helpers/test-database';
import { entriesWithScan } from '../../../helpers/timeline-rows';
import { buildZip } from '../../../helpers/zip-builder';

// A long import writes its timeline while other writers go on (SQLite: in steps that they get
// the store between; PostgreSQL: through one COPY that locks nothing they need), and nobody sees
// any of it before the whole package is accepted.

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

/** Whether an import is writing a timeline: staged rows on SQLite, a COPY under way on PostgreSQL (uncommitted, so unseen). */
const writing = async (ctx: TestContext): Promise<boolean> => {
  if (!onPostgres) return (await staged(ctx)) > 0;
  const { rows } = await sql<{ n: number }>`
    select count(*)::int as n from pg_stat_activity
    where datname = current_database() and query like 'COPY "timeline_entries"%' and state <> 'idle'`.execute(ctx.db);
  return rows[0]!.n > 0;
};

const entryCount = async (ctx: TestContext): Promise<number> => {
  const row = await ctx.db
    .selectFrom('timeline_entries')
    .select((eb) => eb.fn.countAll<number>().as('n'))
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

  it('shows nothing of a long import until it is whole', async () => {
    const id = derivedScanId(ctx.owner.id, 'staging_long');
    let importDone = false;
    const importing = postZip(ctx, buildZip([{ name: 'long.json', data: evidenceJson('staging_long', ENTRIES) }])).then(
      (response) => {
        importDone = true;
        return response;
      },
    );
    await until(async () => importDone || (await writing(ctx)));
    expect(importDone).toBe(false);

    // Half-written: the scan is not there, not listed, not counted.
    expectError(await ctx.request({ method: 'GET', url: `/v1/scans/${id}` }), 404, 'not_found');
    const list = await ctx.request({ method: 'GET', url: '/v1/scans' });
    expect((list.json() as { total: number }).total).toBe(0);

    const response = await importing;
    expect(response.statusCode, response.body).toBe(201);
    expect((response.json() as ImportResult).imported).toEqual([id]);
    expect(await staged(ctx)).toBe(0);
    const stored = await entriesWithScan(ctx.db).where('timelines.scan_id', '=', id).execute();
    expect(stored).toHaveLength(ENTRIES);
    expect(stored.map((entry) => Number(entry.seq)).sort((x, y) => x - y)).toEqual([...Array(ENTRIES).keys()]);
  });

  it('stores a submit while a timeline is half staged', async () => {
    const other = await ctx.createUser('submitter');
    const writer = stagedTimelineWriter(ctx.db);
    const entries = Array.from({ length: 6 * STAGE_ROWS }, (_, i) => ({ timestamp: i, action: 'a', tokens: 1 }));
    await writer.write(entries.slice(0, 3 * STAGE_ROWS));
    const submitted = await ctx.request({
      method: 'POST',
      url: '/v1/scans',
      as: other,
      payload: { tool: 'cursor', action: 'edit', tokens: 3 },
    });
    expect(submitted.statusCode, submitted.body).toBe(201);
    await writer.write(entries.slice(3 * STAGE_ROWS));
    await writer.settled();
    await writer.discard();
    expect(await staged(ctx)).toBe(0);
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
    const writer = new SteppedTimelineWriter(ctx.db);
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

  it.runIf(onPostgres)(
    'leaves nothing of a copied timeline that is abandoned or whose COPY fails, and gives its connection back',
    async () => {
      const before = await entryCount(ctx);
      // Long enough for several sends before the end.
      const entries = Array.from({ length: 20_000 }, (_, i) => ({ timestamp: i, action: 'read', tokens: i % 5 }));
      // More writers than the pool has connections: each must give its own back.
      for (let i = 0; i < 12; i++) {
        const writer = new CopiedTimelineWriter(ctx.db);
        if (i % 2 === 0) {
          await writer.write(entries);
          await writer.discard();
        } else {
          // Refused by the server while the rest is still being sent: the failure is the server's.
          const writing = async () => {
            await writer.write([{ ...entries[0]!, tokens: -1 }, ...entries.slice(1)]);
            await writer.settled();
          };
          await expect(writing()).rejects.toThrow(/violates check constraint/);
          await writer.discard();
        }
      }
      expect(await entryCount(ctx)).toBe(before);
      expect(await staged(ctx)).toBe(0);
    },
  );
});
