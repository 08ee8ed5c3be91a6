import { sql, type Kysely } from 'kysely';
import type { Database } from '../database';
import { sqliteEngineOf } from './sqlite-connection';

/**
 * Runs `work` on one connection of `db` that holds the writer throughout, and whose transactions
 * keep their statement and savepoint journals in memory: for many small writes in one
 * transaction (group commit). SQLite keeps such a journal in memory up to 64 KiB, then moves it
 * to a temporary file for the rest of the transaction; a batch of submissions (each a scan row,
 * six index entries, two rollups and a timeline) passes that, and writing the file cost a batch
 * more than its inserts did. Not for large writes: their journals hold every page they change
 * (deleting an organization of 67,000 scans took 385 MB instead of 154).
 */
export async function withJournalsInMemory<T>(
  db: Kysely<Database>,
  work: (connection: Kysely<Database>) => Promise<T>,
): Promise<T> {
  return db.connection().execute(async (connection) => {
    // The setting is read when a write transaction begins; a statement other than a SELECT takes
    // the writer and keeps it until `connection` is released, so no other transaction sees it.
    await sql`pragma temp_store = memory`.execute(connection);
    try {
      return await work(connection);
    } finally {
      await sql`pragma temp_store = default`.execute(connection);
    }
  });
}

/**
 * Runs `work` (a bulk load into a store no other connection has open) with a rollback journal
 * instead of the WAL: WAL writes every new page twice, into the log at commit and into the file
 * at the checkpoint, and for a load of gigabytes that is a third of its time. Leaving WAL needs
 * the only connection to the file, so the read-only handle is closed first; when another
 * connection (a server on the same data directory) has it open, SQLite says busy and `work` runs
 * in WAL as it is. WAL is back when `work` ends, whatever its outcome.
 */
export async function withRollbackJournal<T>(db: Kysely<Database>, work: () => Promise<T>): Promise<T> {
  const handle = sqliteEngineOf(db);
  if (!handle || handle.sqlite.memory) return work();
  handle.driver.closeReader();
  await handle.checkpointer?.stop();
  const { sqlite } = handle;
  const timeout = sqlite.pragma('busy_timeout', { simple: true }) as number;
  let left: boolean;
  try {
    // Busy means another connection: no point waiting for it to go.
    sqlite.pragma('busy_timeout = 0');
    left = sqlite.pragma('journal_mode = DELETE', { simple: true }) === 'delete';
  } catch (error) {
    if ((error as { code?: string }).code !== 'SQLITE_BUSY') throw error;
    left = false;
  } finally {
    sqlite.pragma(`busy_timeout = ${Math.trunc(timeout)}`);
  }
  try {
    return await work();
  } finally {
    if (left) sqlite.pragma('journal_mode = WAL');
  }
}
