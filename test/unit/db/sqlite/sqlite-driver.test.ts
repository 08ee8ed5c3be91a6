import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Db } from '../../../../src/main/db/database';
import { migrateToLatest } from '../../../../src/main/db/migrate';
import { openSqliteDatabase } from '../../../../src/main/db/sqlite/sqlite-connection';

const user = (id: string) => ({ id, name: id, is_workspace_owner: 0, created_at: new Date(0).toISOString() });

/** A transaction that has written `u_tx` and holds the writer until `release()`. */
function heldTransaction(db: Db) {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  let wrote!: () => void;
  const written = new Promise<void>((resolve) => (wrote = resolve));
  const done = db.transaction().execute(async (trx) => {
    await trx.insertInto('users').values(user('u_tx')).execute();
    wrote();
    await held;
    // Inside its own transaction a read sees what it wrote.
    return trx.selectFrom('users').select('id').where('id', '=', 'u_tx').executeTakeFirst();
  });
  return { written, release, done };
}

const ids = async (db: Db) => (await db.selectFrom('users').select('id').orderBy('id').execute()).map((u) => u.id);

describe.each([
  ['a file', (dir: string) => join(dir, 'x.db')],
  ['memory', () => ':memory:'],
])('the SQLite driver on %s', (_name, file) => {
  let dir: string;
  let db: Db;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'scandesk-driver-'));
    db = openSqliteDatabase(file(dir));
    await migrateToLatest(db);
    await db.insertInto('users').values(user('u_before')).execute();
  });
  afterEach(async () => {
    await db.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  it('lets a write outside a transaction wait for it, then sees the committed state', async () => {
    const transaction = heldTransaction(db);
    await transaction.written;
    let inserted = false;
    const write = db
      .insertInto('users')
      .values(user('u_after'))
      .execute()
      .then(() => (inserted = true));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(inserted).toBe(false);
    transaction.release();
    expect(await transaction.done).toEqual({ id: 'u_tx' });
    await write;
    expect(await ids(db)).toEqual(['u_after', 'u_before', 'u_tx']);
  });

  it('answers a read during a transaction from the committed state, or after it in memory', async () => {
    const transaction = heldTransaction(db);
    await transaction.written;
    const read = ids(db);
    if (file(dir) === ':memory:') {
      // One handle: the read waits for the transaction and sees its rows.
      transaction.release();
      expect(await read).toEqual(['u_before', 'u_tx']);
    } else {
      // Answered while the transaction is still open, without its uncommitted row.
      expect(await read).toEqual(['u_before']);
      transaction.release();
    }
    await transaction.done;
    expect(await ids(db)).toEqual(['u_before', 'u_tx']);
  });

  it('reads on the writer while no one holds it, and on the read-only handle while someone does', async () => {
    // A temporary table exists on the connection that made it only: raw SQL makes it on the writer.
    await sql`create temp table probe (x integer)`.execute(db);
    await sql`insert into temp.probe values (1)`.execute(db);
    const probe = () =>
      db
        .selectFrom(sql`temp.probe`.as('p'))
        .select(sql<number>`count(*)`.as('n'))
        .execute();
    expect(await probe()).toEqual([{ n: 1 }]);
    const transaction = heldTransaction(db);
    await transaction.written;
    if (file(dir) === ':memory:') {
      const read = probe();
      transaction.release();
      expect(await read).toEqual([{ n: 1 }]);
    } else {
      await expect(probe()).rejects.toThrow(/no such table/);
      transaction.release();
    }
    await transaction.done;
    expect(await probe()).toEqual([{ n: 1 }]);
  });

  it('keeps a rolled-back transaction invisible to reads and writes alike', async () => {
    await expect(
      db.transaction().execute(async (trx) => {
        await trx.insertInto('users').values(user('u_gone')).execute();
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(await ids(db)).toEqual(['u_before']);
    await db.insertInto('users').values(user('u_gone')).execute();
    expect(await ids(db)).toEqual(['u_before', 'u_gone']);
  });
});
