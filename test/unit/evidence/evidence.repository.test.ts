import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withSqlite } from '../../../src/main/db/sqlite/sqlite-connection';
import type { Db } from '../../../src/main/db/database';
import {
  createTimeline,
  insertTimeline,
  timelineAggregate,
  timelineBounds,
  timelineChunks,
  timelineSeqRange,
  timelineTupleChunks,
  type TimelineTuple,
} from '../../../src/main/evidence/evidence.repository';
import { findWorkspaceOwner } from '../../../src/main/users/users.repository';
import { openWorkspace, type Workspace } from '../../../src/main/workspace/workspace';

const SCAN = 'scan_long';
const OTHER = 'scan_other';
const ENTRIES = 2345;

/** A scan row to hang timeline entries on; its other fields do not matter here. */
const insertScanRow = (db: Db, id: string, ownerId: string, requestCount: number) =>
  db
    .insertInto('scans')
    .values({
      id,
      created_at: 0,
      tool: 't',
      action: 'a',
      tokens: 0,
      status: 'completed',
      source: 'submitted',
      organization_id: null,
      submitted_by: ownerId,
      token_breakdown: '{}',
      request_count: requestCount,
      violation_count: 0,
      worst_severity: 0,
    })
    .execute();

async function collect<T>(chunks: AsyncIterable<T[]>): Promise<{ sizes: number[]; rows: T[] }> {
  const sizes: number[] = [];
  const rows: T[] = [];
  for await (const chunk of chunks) {
    sizes.push(chunk.length);
    rows.push(...chunk);
  }
  return { sizes, rows };
}

describe('timelineTupleChunks', () => {
  let dir: string;
  let workspace: Workspace;
  let db: Db;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'scandesk-tuple-chunks-'));
    workspace = await openWorkspace(dir);
    db = workspace.db;
    const owner = (await findWorkspaceOwner(db))!;
    for (const id of [SCAN, OTHER, 'scan_empty']) {
      await insertScanRow(db, id, owner.id, 0);
    }
    // A gap in seq (never written by the app, but chunks must not depend on seq being dense).
    const seqs = Array.from({ length: ENTRIES }, (_, i) => (i < 1000 ? i : i + 17));
    const timeline = await createTimeline(db, SCAN);
    for (let at = 0; at < seqs.length; at += 500) {
      const values = seqs.slice(at, at + 500).map((seq) => ({
        timeline_id: timeline,
        seq,
        timestamp: 1_735_689_600_000 + seq * 1000,
        action: `action ${seq % 7} "é"`,
        tokens: seq * 3,
      }));
      await db.insertInto('timeline_entries').values(values).execute();
    }
    await insertTimeline(
      db,
      OTHER,
      [0, 1, 2].map((seq) => ({ timestamp: seq, action: 'other', tokens: 1 })),
    );
  });

  afterAll(async () => {
    await workspace.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it.each([100, 1000, ENTRIES, 5000])('reads the rows timelineChunks reads, in chunks of %i', async (size) => {
    const expected = (await collect(timelineChunks(db, SCAN, size))).rows.map((row): TimelineTuple => [
      row.seq,
      row.timestamp,
      row.action,
      row.tokens,
    ]);
    const { sizes, rows } = await collect(timelineTupleChunks(db, SCAN, size));
    expect(rows).toHaveLength(ENTRIES);
    expect(rows).toEqual(expected);
    expect(sizes.every((n) => n > 0 && n <= size)).toBe(true);
  });

  it('reads nothing for a scan without a timeline, and only the asked scan', async () => {
    expect((await collect(timelineTupleChunks(db, 'scan_empty'))).rows).toEqual([]);
    expect((await collect(timelineTupleChunks(db, OTHER, 2))).rows.map((row) => row[0])).toEqual([0, 1, 2]);
  });

  it('lets other queries run between chunks', async () => {
    const chunks = timelineTupleChunks(db, SCAN, 100);
    await chunks.next();
    // A transaction between two chunks is neither blocked by the reader nor seen half-done by it.
    await db
      .transaction()
      .execute((trx) => trx.updateTable('scans').set({ tool: 'u' }).where('id', '=', OTHER).execute());
    const rest = await collect(chunks);
    expect(rest.rows).toHaveLength(ENTRIES - 100);
  });
});

describe('withSqlite', () => {
  let dir: string;
  let workspace: Workspace;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'scandesk-with-sqlite-'));
    workspace = await openWorkspace(dir);
  });

  afterAll(async () => {
    await workspace.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const userCount = (db: Db): Promise<number> =>
    withSqlite(db, (sqlite) => {
      const query = db
        .selectFrom('users')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .compile();
      return (sqlite.prepare(query.sql).get(...query.parameters) as { n: number }).n;
    });

  it('waits for a transaction in progress instead of running inside it', async () => {
    const db = workspace.db;
    const before = await userCount(db);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let inserted!: () => void;
    const writing = new Promise<void>((resolve) => (inserted = resolve));
    const transaction = db.transaction().execute(async (trx) => {
      await trx
        .insertInto('users')
        .values({ id: 'u_tx', name: 'tx', is_workspace_owner: 0, created_at: new Date(0).toISOString() })
        .execute();
      inserted();
      await held;
      throw new Error('roll back');
    });
    await writing;
    const counted = userCount(db);
    let settled = false;
    void counted.then(() => (settled = true));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(settled).toBe(false);
    release();
    await expect(transaction).rejects.toThrow('roll back');
    expect(await counted).toBe(before);
  });

  it('refuses what openSqliteDatabase or wrapSqlite did not make, such as a transaction', async () => {
    await expect(
      workspace.db.transaction().execute((trx) => withSqlite(trx as unknown as Db, () => 1)),
    ).rejects.toThrow(/only under a database opened by openSqliteDatabase or wrapSqlite/);
  });
});

describe('time windows as seq ranges', () => {
  let dir: string;
  let workspace: Workspace;
  // Timestamps with long runs of ties, in order, as submit and import store them.
  const stamps = Array.from({ length: 500 }, (_, i) => 1000 + 10 * Math.floor(i / 7) + (i % 7 === 6 ? 3 : 0));
  const tokens = (i: number) => (i * 37) % 101;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'scandesk-seq-range-'));
    workspace = await openWorkspace(dir);
    const owner = (await findWorkspaceOwner(workspace.db))!;
    for (const [id, n] of [
      ['scan_ties', stamps.length],
      ['scan_none', 0],
    ] as const) {
      await insertScanRow(workspace.db, id, owner.id, n);
    }
    await insertTimeline(
      workspace.db,
      'scan_ties',
      stamps.map((timestamp, seq) => ({ timestamp, action: 'a', tokens: tokens(seq) })),
    );
  });

  afterAll(async () => {
    await workspace.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('finds exactly the entries of any window, ties on either bound included', async () => {
    const edges = [undefined, 0, 999, 1000, 1001, 1003, 1010, 1013, 1250, 1700, 1713, 1714, 5000];
    for (const since of edges) {
      for (const until of edges) {
        const inside = stamps
          .map((t, seq) => ({ t, seq }))
          .filter(({ t }) => (since === undefined || t >= since) && (until === undefined || t < until));
        const expected = inside.length === 0 ? null : { first: inside[0]!.seq, last: inside.at(-1)!.seq };
        expect(await timelineSeqRange(workspace.db, 'scan_ties', since, until), `${since}..${until}`).toEqual(expected);
        if (since === undefined || until === undefined) continue;
        const picked = inside.map(({ seq }) => tokens(seq));
        expect(await timelineAggregate(workspace.db, 'scan_ties', since, until)).toEqual(
          picked.length === 0
            ? { count: 0, tokens: 0, min: Number.POSITIVE_INFINITY, max: Number.NEGATIVE_INFINITY }
            : {
                count: picked.length,
                tokens: picked.reduce((a, b) => a + b, 0),
                min: Math.min(...picked),
                max: Math.max(...picked),
              },
        );
      }
    }
    expect(await timelineBounds(workspace.db, 'scan_ties')).toEqual({ first: stamps[0], last: stamps.at(-1) });
  });

  it('answers an empty timeline with nothing', async () => {
    expect(await timelineSeqRange(workspace.db, 'scan_none', undefined, undefined)).toBeNull();
    expect(await timelineSeqRange(workspace.db, 'scan_none', 0, 10)).toBeNull();
    expect(await timelineBounds(workspace.db, 'scan_none')).toBeNull();
  });
});
