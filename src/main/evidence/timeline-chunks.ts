import type SQLite from 'better-sqlite3';
import { withSqlite } from '../db/connection';
import type { Db, Executor } from '../db/database';

export interface TimelineRow {
  seq: number;
  timestamp: number;
  action: string;
  tokens: number;
}

/** A timeline row as the export reads it: an array per row costs less than an object. */
export type TimelineTuple = [seq: number, timestamp: number, action: string, tokens: number];

const chunkQuery = (db: Executor, scanId: string, after: number, limit: number) =>
  db
    .selectFrom('timeline_entries')
    .select(['seq', 'timestamp', 'action', 'tokens'])
    .where('scan_id', '=', scanId)
    .where('seq', '>', after)
    .orderBy('seq')
    .limit(limit);

/**
 * A scan's timeline in order, a chunk at a time (keyset on seq). Each chunk is its own short
 * query, so a slow reader never holds the connection and memory stays flat for any length.
 */
export async function* timelineChunks(db: Executor, scanId: string, chunkSize = 5000): AsyncGenerator<TimelineRow[]> {
  let after = -1;
  for (;;) {
    const rows = await chunkQuery(db, scanId, after, chunkSize).execute();
    if (rows.length === 0) return;
    yield rows;
    after = rows[rows.length - 1]!.seq;
    if (rows.length < chunkSize) return;
  }
}

/** No seq is below 0, and no other parameter of the chunk query is a negative number. */
const FIRST_AFTER = -1;

/**
 * timelineChunks for the export, which reads every row of long timelines: the query is compiled
 * by Kysely and prepared once, and rows come as arrays. Building and compiling the query per
 * chunk and an object per row cost more than SQLite's own work. Same keyset chunks, each its own
 * short read between which other requests run; not for use inside a transaction.
 */
export async function* timelineTupleChunks(db: Db, scanId: string, chunkSize = 5000): AsyncGenerator<TimelineTuple[]> {
  const query = chunkQuery(db, scanId, FIRST_AFTER, chunkSize).compile();
  // better-sqlite3 binds by position: find the keyset bound among the parameters once.
  const params = [...query.parameters];
  const afterAt = params.indexOf(FIRST_AFTER);
  if (afterAt === -1 || params.lastIndexOf(FIRST_AFTER) !== afterAt) {
    throw new Error('unexpected parameters in the compiled timeline chunk query');
  }
  let statement: SQLite.Statement<unknown[], TimelineTuple> | undefined;
  for (;;) {
    const rows = await withSqlite(db, (sqlite) => {
      statement ??= sqlite.prepare<unknown[], TimelineTuple>(query.sql).raw(true);
      return statement.all(...params);
    });
    if (rows.length === 0) return;
    yield rows;
    params[afterAt] = rows[rows.length - 1]![0];
    if (rows.length < chunkSize) return;
  }
}
