import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Db } from '../../../../src/main/db/database';
import { migrateToLatest } from '../../../../src/main/db/migrate';
import { withRollbackJournal } from '../../../../src/main/db/sqlite/journal-switches';
import { openSqlite, openSqliteDatabase, sqliteUnder } from '../../../../src/main/db/sqlite/sqlite-connection';

const user = (id: string) => ({ id, name: id, is_workspace_owner: 0, created_at: new Date(0).toISOString() });
const journalMode = (db: Db): unknown => sqliteUnder(db).pragma('journal_mode', { simple: true });
const ids = async (db: Db) => (await db.selectFrom('users').select('id').orderBy('id').execute()).map((u) => u.id);

describe('withRollbackJournal', () => {
  let dir: string;
  let file: string;
  let db: Db;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'scandesk-journal-'));
    file = join(dir, 'x.db');
    db = openSqliteDatabase(file);
    await migrateToLatest(db);
    // A read first: the read-only handle is open, as in the demo after its workspace start.
    expect(await ids(db)).toEqual([]);
  });
  afterEach(async () => {
    await db.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  it('runs the work without the WAL when it has the file to itself, and is back in WAL after', async () => {
    const seen = await withRollbackJournal(db, async () => {
      const mode = journalMode(db);
      await db.transaction().execute((trx) => trx.insertInto('users').values(user('u_1')).execute());
      return mode;
    });
    expect(seen).toBe('delete');
    expect(journalMode(db)).toBe('wal');
    // Reads reopen their handle and see the work.
    expect(await ids(db)).toEqual(['u_1']);
  });

  it('is back in WAL after work that fails, with the work rolled back', async () => {
    await expect(
      withRollbackJournal(db, () =>
        db.transaction().execute(async (trx) => {
          await trx.insertInto('users').values(user('u_1')).execute();
          throw new Error('the load broke');
        }),
      ),
    ).rejects.toThrow('the load broke');
    expect(journalMode(db)).toBe('wal');
    expect(await ids(db)).toEqual([]);
  });

  it('keeps the WAL, without waiting, while another connection has the file open', async () => {
    const other = openSqlite(file);
    try {
      other.prepare('select count(*) from users').get();
      // Were it to wait for the other connection, this test would time out long before.
      sqliteUnder(db).pragma('busy_timeout = 600000');
      expect(await withRollbackJournal(db, async () => journalMode(db))).toBe('wal');
      expect(sqliteUnder(db).pragma('busy_timeout', { simple: true })).toBe(600_000);
    } finally {
      other.close();
    }
  });
});
