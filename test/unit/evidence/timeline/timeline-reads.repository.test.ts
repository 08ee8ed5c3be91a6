import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withSqlite } from '../../../../src/main/db/sqlite/sqlite-connection';
import type { Db } from '../../../../src/main/db/database';
import type { TimelineTuple } from '../../../../src/main/evidence/timeline/timeline-entry';
import { timelineChunks, timelineTupleChunks } from '../../../../src/main/evidence/timeline/timeline-reads.repository';
import { createTimeline, insertTimeline } from '../../../../src/main/evidence/timeline/timeline-writes.repository';
import { findWorkspaceOwner } from '../../../../src/main/users/users.repository';
import { openWorkspace, type Workspace } from '../../../../src/main/workspace/workspace';
import { insertScanRow } from '../../../helpers/scan-row';

const SCAN = 'scan_long';
const OTHER = 'scan_other';
const ENTRIES = 2345;

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
