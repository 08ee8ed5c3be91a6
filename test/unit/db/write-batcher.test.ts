import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSqliteDatabase, sqliteUnder } from '../../../src/main/db/sqlite/sqlite-connection';
import type { Db } from '../../../src/main/db/database';
import { migrateToLatest } from '../../../src/main/db/migrate';
import type { Executor } from '../../../src/main/db/database';
import {
  deferredWritesOf,
  WriteBatcher,
  type BatchedWork,
  type DeferredWrites,
} from '../../../src/main/db/write-batcher';

describe('WriteBatcher (group commit)', () => {
  let dir: string;
  let db: Db;
  /** A second connection to the same file: sees only what was committed. */
  let observer: SQLite.Database;
  let transactions: number;
  let batcher: WriteBatcher;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'scandesk-batcher-'));
    db = openSqliteDatabase(join(dir, 'x.db'));
    await migrateToLatest(db);
    observer = new SQLite(join(dir, 'x.db'), { readonly: true });
    transactions = 0;
    countTransactions(db);
    // On SQLite the batcher runs each transaction on a connection of its own (withJournalsInMemory).
    const connection = db.connection.bind(db);
    db.connection = () => {
      const builder = connection();
      return {
        execute: (work) =>
          builder.execute((bound) => {
            countTransactions(bound);
            return work(bound);
          }),
      } as typeof builder;
    };
    batcher = new WriteBatcher(db);
  });
  afterEach(async () => {
    observer.close();
    await db.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  function countTransactions(kysely: Db): void {
    const start = kysely.startTransaction.bind(kysely);
    kysely.startTransaction = () => {
      transactions++;
      return start();
    };
  }

  const committed = (): string[] =>
    (observer.prepare('SELECT id FROM users ORDER BY id').all() as { id: string }[]).map((row) => row.id);

  const addUser =
    (id: string): BatchedWork<string> =>
    async (trx) => {
      await trx.insertInto('users').values({ id, name: id, is_workspace_owner: 0, created_at: '2026-11-21' }).execute();
      return id;
    };

  it('runs works that arrive together in one transaction and settles them after the commit', async () => {
    const ids = Array.from({ length: 20 }, (_, i) => `u${String(i).padStart(2, '0')}`);
    const seenBeforeCommit: string[][] = [];
    const seenOnSettle: string[][] = [];
    const results = await Promise.all(
      ids.map((id) =>
        batcher
          .run(async (trx) => {
            await addUser(id)(trx);
            seenBeforeCommit.push(committed());
            return id;
          })
          .then((result) => {
            seenOnSettle.push(committed());
            return result;
          }),
      ),
    );
    expect(results).toEqual(ids);
    expect(transactions).toBe(1);
    expect(seenBeforeCommit.every((seen) => seen.length === 0)).toBe(true);
    expect(seenOnSettle.every((seen) => seen.length === ids.length)).toBe(true);
    expect(committed()).toEqual(ids);
  });

  it('rolls back and rejects only the work that failed', async () => {
    const outcomes = await Promise.allSettled([
      batcher.run(addUser('a')),
      batcher.run(async (trx) => {
        await addUser('b')(trx);
        throw new Error('b refused');
      }),
      batcher.run(addUser('c')),
    ]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((outcomes[1] as PromiseRejectedResult).reason).toEqual(new Error('b refused'));
    expect(committed()).toEqual(['a', 'c']);
    // Together first (rolled back when b threw), then apart, each work in its own savepoint.
    expect(transactions).toBe(2);
  });

  it('rejects a work that throws before it returns a promise, like one that rejects', async () => {
    const syncThrow: BatchedWork<string> = () => {
      throw new Error('refused at once');
    };
    const outcomes = await Promise.allSettled([batcher.run(addUser('a')), batcher.run(syncThrow)]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'rejected']);
    expect(committed()).toEqual(['a']);
  });

  it('rejects the works of a batch whose store closed before it ran, instead of leaving them waiting', async () => {
    const store = openSqliteDatabase(join(dir, 'closing.db'));
    const queued = new WriteBatcher(store).run(addUser('a'));
    // The batch runs on the next turn of the event loop: the store's handle is closed by then.
    sqliteUnder(store).close();
    await expect(queued).rejects.toThrow(/not open/);
    await store.destroy().catch(() => undefined);
  });

  it('stores nothing of a lone work that throws after writing, and answers it at once', async () => {
    let runs = 0;
    const outcome = batcher.run(async (trx) => {
      runs++;
      await addUser('a')(trx);
      throw new Error('a refused');
    });
    await expect(outcome).rejects.toThrow('a refused');
    expect(committed()).toEqual([]);
    expect([runs, transactions]).toEqual([1, 1]);
  });

  it('rejects every work of a batch whose commit fails, and stores none of it', async () => {
    const outcomes = await Promise.allSettled([
      batcher.run(addUser('a')),
      batcher.run(async (trx) => {
        // A deferred foreign key is checked at COMMIT: the whole batch's commit fails.
        await sql`PRAGMA defer_foreign_keys = ON`.execute(trx);
        await trx
          .insertInto('tokens')
          .values({ id: 't', user_id: 'nobody', token_hash: 'x', created_at: 'x' })
          .execute();
        return 't';
      }),
    ]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['rejected', 'rejected']);
    expect(String((outcomes[0] as PromiseRejectedResult).reason)).toMatch(/FOREIGN KEY/);
    expect(committed()).toEqual([]);
    // The batcher is still usable afterwards.
    expect(await batcher.run(addUser('d'))).toBe('d');
    expect(committed()).toEqual(['d']);
  });

  it("keeps a batch's journals in memory, and only its own", async () => {
    const tempStore = async (kysely: Db): Promise<number> =>
      (await sql<{ temp_store: number }>`pragma temp_store`.execute(kysely)).rows[0]!.temp_store;
    const MEMORY = 2;
    const inBatch = await Promise.all(
      ['a', 'b'].map((id) => batcher.run(async (trx) => [await addUser(id)(trx), await tempStore(trx)])),
    );
    expect(inBatch).toEqual([
      ['a', MEMORY],
      ['b', MEMORY],
    ]);
    expect(await tempStore(db)).toBe(0);
    expect(await db.transaction().execute(tempStore)).toBe(0);
  });

  it('runs a lone work at once, and later works in transactions of their own', async () => {
    expect(await batcher.run(addUser('a'))).toBe('a');
    expect(await batcher.run(addUser('b'))).toBe('b');
    expect(transactions).toBe(2);
    expect(committed()).toEqual(['a', 'b']);
  });

  describe('deferred writes', () => {
    /** Users whose rows wait for the batch's end, then go in one multi-row INSERT. */
    class DeferredUsers implements DeferredWrites {
      readonly ids: string[] = [];
      flushes = 0;
      constructor(private readonly trx: Executor) {}
      async flush(): Promise<void> {
        this.flushes++;
        seenAtFlush.push(committed());
        await this.trx
          .insertInto('users')
          .values(this.ids.map((id) => ({ id, name: id, is_workspace_owner: 0, created_at: '2026-11-21' })))
          .execute();
      }
    }
    let seenAtFlush: string[][];
    let made: DeferredUsers[];
    beforeEach(() => {
      seenAtFlush = [];
      made = [];
    });

    /** Adds the user at the batch's end where writes may wait, else at once. */
    const addLater =
      (id: string): BatchedWork<string> =>
      async (trx) => {
        const later = deferredWritesOf(trx, DeferredUsers, () => {
          const writes = new DeferredUsers(trx);
          made.push(writes);
          return writes;
        });
        if (later) later.ids.push(id);
        else await addUser(id)(trx);
        return id;
      };

    it("writes what a batch's works deferred once, after the last work and before the commit", async () => {
      const ids = ['a', 'b', 'c', 'd'];
      expect(await Promise.all(ids.map((id) => batcher.run(addLater(id))))).toEqual(ids);
      expect(made.map((writes) => [writes.ids, writes.flushes])).toEqual([[ids, 1]]);
      expect(seenAtFlush).toEqual([[]]);
      expect([transactions, committed()]).toEqual([1, ids]);
    });

    it('runs the batch again apart when the deferred writes fail, where each work writes at once', async () => {
      await batcher.run(addUser('b'));
      transactions = 0;
      const outcomes = await Promise.allSettled(['a', 'b', 'c'].map((id) => batcher.run(addLater(id))));
      expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
      expect(String((outcomes[1] as PromiseRejectedResult).reason)).toMatch(/UNIQUE/);
      // Deferred once, together; apart, nothing was.
      expect(made.map((writes) => writes.ids)).toEqual([['a', 'b', 'c']]);
      expect([transactions, committed()]).toEqual([2, ['a', 'b', 'c']]);
    });

    it('rejects a lone work whose deferred writes fail, and stores none of it', async () => {
      await batcher.run(addUser('a'));
      await expect(batcher.run(addLater('a'))).rejects.toThrow(/UNIQUE/);
      expect(committed()).toEqual(['a']);
    });

    it('defers nothing outside a group commit', async () => {
      expect(deferredWritesOf(db, DeferredUsers, () => new DeferredUsers(db))).toBeUndefined();
      await db.transaction().execute(async (trx) => {
        expect(deferredWritesOf(trx, DeferredUsers, () => new DeferredUsers(trx))).toBeUndefined();
      });
    });
  });
});
