/**
 * A PostgreSQL retry of an import's closing transaction (a lost race: a unique key taken, a
 * deadlock) runs the whole transaction again. A timeline too long to be held is staged before it,
 * and its pyramid is recorded as it is staged: the retry must store that pyramid as the first
 * attempt would have, not an empty one. SQLite transactions hold the write lock from BEGIN and
 * are never retried.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Executor } from '../../../../src/main/db/index';
import { HELD_SCAN_ENTRIES } from '../../../../src/main/evidence/import/held-entries';
import { pulledScanId } from '../../../../src/main/evidence/import/import-ids';
import { DEFAULT_IMPORT_LIMITS } from '../../../../src/main/evidence/import/import-limits';
import { importPulledPackage } from '../../../../src/main/evidence/import/pulled-import.service';
import { GRID_MIN_ENTRIES } from '../../../../src/main/evidence/timeline/timeline-grid';
import { timelineOf, upstreamEvidence } from '../../../helpers/import-fixtures';
import { insertRemote } from '../../../helpers/sync-fixtures';
import { createTestContext, type TestContext } from '../../../helpers/test-app';
import { onPostgres } from '../../../helpers/test-database';
import { buildZip } from '../../../helpers/zip-builder';

/** Staged (too long to hold) and long enough for a stored pyramid. */
const ENTRIES = Math.max(HELD_SCAN_ENTRIES, GRID_MIN_ENTRIES) + 500;

describe.runIf(onPostgres)('a retried closing transaction of an import', () => {
  let ctx: TestContext;
  let dir: string;

  beforeAll(async () => {
    ctx = await createTestContext();
    dir = mkdtempSync(join(tmpdir(), 'scandesk-closing-retry-'));
  });
  afterAll(async () => {
    await ctx?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** One upstream scan with a staged timeline, pulled for `remoteId`; `closing` as the sync's cursor write. */
  async function pull(remoteId: string, closing: (trx: Executor) => Promise<void>) {
    const file = join(dir, `${remoteId}.zip`);
    const evidence = upstreamEvidence('u1', timelineOf(ENTRIES));
    writeFileSync(file, buildZip([{ name: 'evidence-u1.json', data: Buffer.from(JSON.stringify(evidence)) }]));
    const placement = { remoteId, userId: ctx.owner.id, organizations: new Map<string, string>() };
    return importPulledPackage(ctx.db, file, DEFAULT_IMPORT_LIMITS, placement, { closing });
  }

  const pyramidOf = async (scanId: string) => ({
    grid: await ctx.db
      .selectFrom('timeline_grids')
      .select(['origin', 'width', 'levels'])
      .where('scan_id', '=', scanId)
      .execute(),
    cells: await ctx.db
      .selectFrom('timeline_cells')
      .select(['level', 'cell', 'low_level', 'first_cell', 'count', 'tokens', 'min_tokens', 'max_tokens'])
      .where('scan_id', '=', scanId)
      .orderBy('level')
      .orderBy('cell')
      .execute(),
    entries: Number(
      (
        await ctx.db
          .selectFrom('timeline_entries')
          .innerJoin('timelines', 'timelines.id', 'timeline_entries.timeline_id')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('timelines.scan_id', '=', scanId)
          .executeTakeFirstOrThrow()
      ).n,
    ),
  });

  it('stores the same pyramid as an import that was not retried', async () => {
    const once = await insertRemote(ctx.db, { user_id: ctx.owner.id });
    const retried = await insertRemote(ctx.db, { user_id: ctx.owner.id });

    expect((await pull(once.id, async () => undefined)).new).toEqual([pulledScanId(once.id, 'u1')]);

    // The first attempt loses a race on a unique key (a remote row another writer took): rolled
    // back, and run again from the start by inTransaction.
    let attempts = 0;
    const result = await pull(retried.id, async (trx) => {
      attempts += 1;
      if (attempts === 1) {
        await trx
          .insertInto('remotes')
          .values({ ...once, id: once.id })
          .execute();
      }
    });
    expect(attempts).toBe(2);
    expect(result.new).toEqual([pulledScanId(retried.id, 'u1')]);

    const expected = await pyramidOf(pulledScanId(once.id, 'u1'));
    expect(expected.grid).toHaveLength(1);
    expect(expected.entries).toBe(ENTRIES);
    expect(await pyramidOf(pulledScanId(retried.id, 'u1'))).toEqual(expected);
  });
});
