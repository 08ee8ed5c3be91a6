import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Db } from '../../../../src/main/db/database';
import { withRollbackJournal } from '../../../../src/main/db/sqlite/journal-switches';
import { JOURNAL_SIZE_LIMIT_BYTES } from '../../../../src/main/db/sqlite/checkpoint-decision';
import {
  openSqlite,
  openSqliteDatabase,
  sqliteEngineOf,
  sqliteUnder,
} from '../../../../src/main/db/sqlite/sqlite-connection';
import { WalCheckpointer } from '../../../../src/main/db/sqlite/wal-checkpointer';

const MB = 1024 * 1024;
const walBytes = (file: string): number => statSync(`${file}-wal`).size;

/** About `mb` MB of new pages in one transaction. */
const write = (db: Db, round: number, mb: number) =>
  sql`
    with recursive n (i) as (select 1 union all select i + 1 from n where i < ${mb * 256})
    insert into blobs (round, body) select ${round}, randomblob(4000) from n`.execute(db);

describe('WAL checkpoints on a worker thread', () => {
  let dir: string;
  let file: string;
  let db: Db;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'scandesk-checkpoint-'));
    file = join(dir, 'x.db');
    db = openSqliteDatabase(file);
    await sql`create table blobs (round integer, body blob)`.execute(db);
  });
  afterEach(async () => {
    await db.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  it('keeps the log from growing although the writer never checkpoints itself', async () => {
    expect(sqliteUnder(db).pragma('wal_autocheckpoint', { simple: true })).toBe(0);
    for (let round = 0; round < 6; round++) {
      await write(db, round, 6);
      await new Promise((resolve) => setTimeout(resolve, 300));
    }
    // Six rounds of 6 MB: without checkpoints the log would hold all 36 MB. Each round restarts it
    // after the worker's checkpoint of the one before, so it stays near one round's size.
    expect(walBytes(file)).toBeLessThanOrEqual(16 * MB);
    expect(Number((await sql<{ n: number }>`select count(*) as n from blobs`.execute(db)).rows[0]!.n)).toBe(
      6 * 6 * 256,
    );
  });

  it('restarts a log that is written while its PASSIVE checkpoint runs, and cuts its file back', async () => {
    const own = join(dir, 'busy.db');
    // The app's pragmas (journal_size_limit among them); checkpoints are this checkpointer's alone.
    const writer = openSqlite(own);
    writer.pragma('wal_autocheckpoint = 0');
    writer.exec('create table blobs (body blob)');
    const insert = writer.prepare(
      'with recursive n (i) as (select 1 union all select i + 1 from n where i < ?) insert into blobs select randomblob(4000) from n',
    );
    const checkpointer = new WalCheckpointer(own, { onFailure: () => undefined });
    // The writer lock as the driver hands it out, granted by the test once the reader is done.
    let asked!: () => void;
    const restartWanted = new Promise<void>((resolve) => (asked = resolve));
    let grant!: () => void;
    const granted = new Promise<void>((resolve) => (grant = resolve));
    checkpointer.useWriterLock({
      lock: () => {
        asked();
        return granted;
      },
      unlock: () => undefined,
    });
    // A reader in an older snapshot keeps the PASSIVE checkpoint from copying what came after it,
    // as a commit landing while the checkpoint runs would: the log cannot start over by itself.
    const reader = new SQLite(own, { readonly: true });
    try {
      insert.run(24 * 256);
      // With statistics already, so that the worker's ANALYZE (the test after next) writes nothing here.
      writer.exec('analyze');
      reader.exec('begin');
      reader.prepare('select count(*) from blobs').get();
      insert.run(256);
      checkpointer.wrote();
      // Asked for the writer, or done without it.
      await Promise.race([restartWanted, checkpointer.settled()]);
      reader.exec('commit');
      grant();
      await checkpointer.settled();
      expect(walBytes(own)).toBeGreaterThan(24 * MB);
      expect(checkpointer.restarts).toBe(1);
      // The next commit starts the log over and cuts the file to the limit, instead of adding to it.
      insert.run(2 * 256);
      // Without the RESTART the log would still hold the 25 MB, and this write would go after them.
      expect(walBytes(own)).toBeLessThanOrEqual(JOURNAL_SIZE_LIMIT_BYTES);
      expect(writer.prepare('select count(*) as n from blobs').get()).toEqual({ n: 27 * 256 });
    } finally {
      await checkpointer.stop();
      reader.close();
      writer.close();
    }
  });

  it('asks for a checkpoint once per 4 MB of log, not after every write once the file has grown', async () => {
    // A writer of its own, so that this checkpointer is the only one on the file.
    const own = join(dir, 'own.db');
    const writer = new SQLite(own);
    writer.pragma('journal_mode = WAL');
    writer.pragma('wal_autocheckpoint = 0');
    writer.exec('create table blobs (body blob)');
    const insert = (rows: number, bytes: number): unknown =>
      writer
        .prepare(
          'with recursive n (i) as (select 1 union all select i + 1 from n where i < ?) insert into blobs select randomblob(?) from n',
        )
        .run(rows, bytes);
    const checkpointer = new WalCheckpointer(own, { onFailure: () => undefined });
    const wrote = async (): Promise<void> => {
      checkpointer.wrote();
      await checkpointer.settled();
    };
    try {
      insert(6 * 256, 4000);
      await wrote();
      expect(checkpointer.checkpoints).toBe(1);
      // The log starts over in the file it has: small writes overwrite old frames, the file keeps its size.
      for (let i = 0; i < 50; i++) {
        insert(1, 100);
        await wrote();
      }
      expect(checkpointer.checkpoints).toBe(1);
      // More than the file held: it grows, and the next checkpoint is due.
      insert(8 * 256, 4000);
      await wrote();
      expect(checkpointer.checkpoints).toBe(2);
    } finally {
      await checkpointer.stop();
      writer.close();
    }
  });

  it('asks for none while held, and for the one that is due when the last hold is released', async () => {
    const own = join(dir, 'held.db');
    const writer = new SQLite(own);
    writer.pragma('journal_mode = WAL');
    writer.pragma('wal_autocheckpoint = 0');
    writer.exec('create table blobs (body blob)');
    const insert = writer.prepare(
      'with recursive n (i) as (select 1 union all select i + 1 from n where i < ?) insert into blobs select randomblob(4000) from n',
    );
    const checkpointer = new WalCheckpointer(own, { onFailure: () => undefined });
    try {
      const first = checkpointer.hold();
      const second = checkpointer.hold();
      for (let round = 0; round < 4; round++) {
        insert.run(6 * 256);
        checkpointer.wrote();
      }
      first();
      first(); // a release counts once
      expect(checkpointer.checkpoints).toBe(0);
      second();
      await checkpointer.settled();
      expect(checkpointer.checkpoints).toBe(1);
    } finally {
      await checkpointer.stop();
      writer.close();
    }
  });

  it('gives statistics to a table that had none when the store opened, and the app its plans', async () => {
    // The list's shape: whose rows (one owner has them all) OR an organization's, newest first.
    await sql`create table items (id integer primary key, owner text, org text, created integer, body blob)`.execute(
      db,
    );
    await sql`create index items_owner on items (owner, id)`.execute(db);
    await sql`create index items_org on items (org, id)`.execute(db);
    await sql`create index items_created on items (created, id)`.execute(db);
    const query = `select id from items where owner = 'me' or org in ('x') order by created desc, id desc limit 5`;
    const plan = (handle: SQLite.Database): string =>
      handle
        .prepare(`explain query plan ${query}`)
        .all()
        .map((row) => (row as { detail: string }).detail)
        .join('; ');
    const engine = sqliteEngineOf(db)!;
    expect(plan(engine.reader()!)).toContain('MULTI-INDEX OR');
    // About 6 MB of log: past the size at which a checkpoint is asked for.
    await sql`
      with recursive n (i) as (select 1 union all select i + 1 from n where i < 6000)
      insert into items (owner, org, created, body) select 'me', null, i, randomblob(900) from n`.execute(db);
    await engine.checkpointer!.settled();
    expect(engine.checkpointer!.analyzedTables.has('items')).toBe(true);
    // Counted in full: every row is the owner's, so the plan walks the created index in order.
    expect(sqliteUnder(db).prepare(`select stat from sqlite_stat1 where idx = 'items_owner'`).pluck().get()).toBe(
      '6000 6000 1',
    );
    expect(plan(sqliteUnder(db))).toContain('SCAN items USING INDEX items_created');
    expect(plan(engine.reader()!)).toContain('SCAN items USING INDEX items_created');
  });

  it('takes statistics again once a table has outgrown small ones, so a lookup of many keys stays a search', async () => {
    await sql`create table keyed (id text primary key, body blob)`.execute(db);
    await sql`create table ballast (id integer primary key, body blob)`.execute(db);
    const lookup = `select * from keyed where id in (${Array.from({ length: 1000 }, (_, n) => `'k${n * 7}'`).join(',')})`;
    const plan = (): string =>
      sqliteUnder(db)
        .prepare(`explain query plan ${lookup}`)
        .all()
        .map((row) => (row as { detail: string }).detail)
        .join('; ');
    // `keyed` grows by `to - from` small rows; the ballast's 6 MB of log make the checkpoint come.
    const grow = async (from: number, to: number) => {
      await sql`
        with recursive n (i) as (select ${from} union all select i + 1 from n where i < ${to - 1})
        insert into keyed (id, body) select 'k' || i, randomblob(40) from n`.execute(db);
      await sql`
        with recursive n (i) as (select 1 union all select i + 1 from n where i < 2000)
        insert into ballast (body) select randomblob(3000) from n`.execute(db);
      await sqliteEngineOf(db)!.checkpointer!.settled();
    };
    const rows = () => sqliteUnder(db).prepare(`select stat from sqlite_stat1 where tbl = 'keyed'`).pluck().get();
    await grow(0, 1000);
    expect(rows()).toBe('1000 1');
    expect(plan()).toContain('SCAN keyed');
    await grow(1000, 30_000);
    expect(rows()).toBe('30000 1');
    expect(plan()).toContain('SEARCH keyed USING INDEX');
  });

  it('lets a rollback journal have the file: the worker closes its connection first', async () => {
    await write(db, 0, 6);
    const seen = await withRollbackJournal(db, async () => {
      await write(db, 1, 1);
      return sqliteUnder(db).pragma('journal_mode', { simple: true });
    });
    expect(seen).toBe('delete');
    // Back in WAL, a large write starts a worker again.
    await write(db, 2, 6);
    await write(db, 3, 6);
    expect(sqliteUnder(db).pragma('journal_mode', { simple: true })).toBe('wal');
  });

  it('closes in a process that has nothing else to wait for while the worker still checkpoints', () => {
    const script = join(import.meta.dirname, '../../../fixtures/db/write-then-close.ts');
    const output = execFileSync(process.execPath, ['--import', 'tsx', script, join(dir, 'child.db')], {
      encoding: 'utf8',
    });
    expect(output).toBe('closed\n');
  });

  it('gives the checkpoints back to the writer when the worker cannot run', async () => {
    const failed: string[] = [];
    const checkpointer = new WalCheckpointer(file, {
      nativeBinding: join(dir, 'no-such-addon.node'),
      onFailure: () => failed.push('failed'),
    });
    await write(db, 0, 6);
    checkpointer.wrote();
    await checkpointer.settled();
    expect(failed).toEqual(['failed']);
    // Failed for good: no further worker is started.
    checkpointer.wrote();
    await checkpointer.settled();
    expect(failed).toEqual(['failed']);
  });
});
