import { createHash } from 'node:crypto';
import type { Db } from './database';
import { dialectOf } from './dialect';
import { withPgClient } from './postgres/pool-driver';
import { withSqliteReader } from './sqlite/sqlite-connection';
import type SQLite from 'better-sqlite3';

/**
 * One compiled query, run again and again with new parameters (a keyset walk over a long
 * timeline, say), rows as arrays in select order. On SQLite it is prepared once and read raw:
 * compiling per run and an object per row cost more than SQLite's own work. On PostgreSQL it is a
 * named prepared statement (parsed and planned once per connection) whose rows pg hands over as
 * arrays, without an object per row in between. Each run is its own
 * short read of the last committed state, between which other requests run; not for use inside a
 * transaction.
 */
export function tupleReader<R extends unknown[]>(db: Db, sql: string): (params: readonly unknown[]) => Promise<R[]> {
  if (dialectOf(db) === 'postgres') {
    // pg keeps a named statement per connection; the name stands for this text only.
    const name = `tuple_${createHash('sha1').update(sql).digest('hex').slice(0, 16)}`;
    return (params) =>
      withPgClient(db, async (client) => {
        const result = await client.query<R>({ name, text: sql, values: [...params], rowMode: 'array' });
        return result.rows;
      });
  }
  let statement: SQLite.Statement<unknown[], R> | undefined;
  return (params) =>
    withSqliteReader(db, (sqlite) => {
      // The read-only handle is reopened now and then (new planner statistics): prepared again on the new one.
      if (statement?.database !== sqlite) statement = sqlite.prepare<unknown[], R>(sql).raw(true);
      return statement.all(...params);
    });
}
