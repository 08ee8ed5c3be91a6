import type { Db, Executor } from './database';
import { WriteBatcher } from './write-batcher';

/**
 * Something a store owns besides its database, made on first use (the scan feed, the live
 * streams' hub: features of their own, which db/ does not import) and closed with the store.
 */
export interface StorePart<T> {
  create(store: Store): T;
  close?(part: T): Promise<void> | void;
}

/** The slot the engine adapters (sqlite/, postgres/) carry for the store of their database. */
export interface StoreSlot {
  store: Store | undefined;
}

/**
 * Everything that lives as long as one open database: the Kysely instance, its group commit
 * (WriteBatcher), and its parts. The engine under the Kysely instance (the SQLite handles and the
 * WAL checkpointer, or the PostgreSQL pool) is closed with it. The workspace makes the store
 * (openStore in open-database.ts) and closes it; a feature holding only `db` reaches it with
 * storeOf, through the adapter every instance and transaction of `db` shares.
 */
export class Store {
  readonly batcher: WriteBatcher;
  private readonly parts = new Map<StorePart<unknown>, unknown>();
  private closed: Promise<void> | undefined;

  constructor(readonly db: Db) {
    this.batcher = new WriteBatcher(db);
  }

  /** The store's `kind` part, made now if it was not yet. */
  part<T>(kind: StorePart<T>): T {
    if (this.parts.has(kind)) return this.parts.get(kind) as T;
    const part = kind.create(this);
    this.parts.set(kind, part);
    return part;
  }

  /** The store's `kind` part if it was ever made. */
  existing<T>(kind: StorePart<T>): T | undefined {
    return this.parts.get(kind) as T | undefined;
  }

  /**
   * Closes, in order: the parts, the last made first (a hub before the feed it listens to); then
   * the group commit, once its queued works settled; then the database (the checkpointer's worker,
   * the read-only handle and the writer, or the pool).
   */
  close(): Promise<void> {
    this.closed ??= (async () => {
      for (const [kind, part] of [...this.parts].reverse()) await kind.close?.(part);
      this.parts.clear();
      await this.batcher.settled();
      await this.db.destroy();
    })();
    return this.closed;
  }
}

/**
 * The store of `db` (a database opened by openDatabase or the engine modules, not a transaction),
 * made now for a database opened without one (a tool's, a test's).
 */
export function storeOf(db: Db): Store {
  const slot = slotOf(db);
  if (db.isTransaction) throw new Error('a transaction has no store of its own: pass the database');
  return (slot.store ??= new Store(db));
}

function slotOf(db: Executor): StoreSlot {
  const adapter = db.getExecutor().adapter as Partial<StoreSlot>;
  if (!('store' in adapter)) throw new Error('not a database opened by openDatabase');
  return adapter as StoreSlot;
}
