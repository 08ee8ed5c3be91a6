/**
 * A data dir's store opened for loading benchmark data straight into it: created the way the app
 * creates it (so the schema, owner and token are the app's own), then opened with durability
 * relaxed, since a failed load is simply built again.
 */
import type { Db } from '../../src/main/db/database';
import { relaxForBulkLoad } from '../../src/main/db/bulk-insert';
import { openDatabase } from '../../src/main/db/open-database';
import { databaseFile } from '../../src/main/workspace/data-dir';
import { prepareWorkspace } from './bare-common';

export interface BulkStore {
  db: Db;
  ownerId: string;
  /** Restores the settings (refreshing the planner's statistics) and closes the store. */
  close(): Promise<void>;
}

/** `database`: the PostgreSQL URL when the run measures PostgreSQL; else the data dir's SQLite file. */
export async function openBulkStore(dataDir: string, database?: string): Promise<BulkStore> {
  const ownerId = await prepareWorkspace(dataDir, database);
  const db = openDatabase(
    database ? { kind: 'postgres', url: database } : { kind: 'sqlite', file: databaseFile(dataDir) },
  );
  const restore = relaxForBulkLoad(db);
  return {
    db,
    ownerId,
    async close() {
      await restore();
      await db.destroy();
    },
  };
}
