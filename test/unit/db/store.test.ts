import { describe, expect, it } from 'vitest';
import { migrateToLatest } from '../../../src/main/db/migrate';
import { openSqliteDatabase } from '../../../src/main/db/sqlite/sqlite-connection';
import { storeOf, type StorePart } from '../../../src/main/db/store';

describe('Store', () => {
  it('is one per database, made on first use, and none for a transaction', async () => {
    const db = openSqliteDatabase(':memory:');
    const store = storeOf(db);
    expect(storeOf(db)).toBe(store);
    expect(store.db).toBe(db);
    await expect(db.transaction().execute(async (trx) => storeOf(trx))).rejects.toThrow(/transaction/);
    await store.close();
  });

  it('makes each part once and closes the parts last made first, then the batcher, then the database', async () => {
    const db = openSqliteDatabase(':memory:');
    await migrateToLatest(db);
    const store = storeOf(db);
    const closed: string[] = [];
    const feed: StorePart<string> = { create: () => 'feed', close: (part) => void closed.push(part) };
    const hub: StorePart<string> = {
      create: (owner) => `hub over ${owner.part(feed)}`,
      close: (part) => void closed.push(part),
    };
    expect(store.existing(hub)).toBeUndefined();
    expect(store.part(hub)).toBe('hub over feed');
    expect(store.part(hub)).toBe('hub over feed');
    let committed = false;
    const write = store.batcher.run(async (trx) => {
      await trx.insertInto('users').values({ id: 'u', name: 'u', is_workspace_owner: 0, created_at: '' }).execute();
      committed = true;
    });
    await store.close();
    await write;
    expect(committed).toBe(true);
    expect(closed).toEqual(['hub over feed', 'feed']);
    await expect(db.selectFrom('users').selectAll().execute()).rejects.toThrow();
  });
});
