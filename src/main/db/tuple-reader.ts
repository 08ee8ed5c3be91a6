import { CompiledQuery } from 'kysely';
import type { Db } from './database';
import { dialectOf } from './dialect';
import { withSqliteReader } from './sqlite/sqlite-connection';
import type SQLite from 'better-sqlite3';

/**
 * One compiled query, run again and again with new parameters (a keyset walk over a long
 * timeline, say), rows as arrays in select order. On SQLite it is prepared once and read raw:
 * compiling per run and an object per row cost more than SQLite's own work. Each run is its own
 * short read of the last committed state, between which other requests run; not for use inside a
 * transaction.
 */
export function tupleReader<R extends unknown[]>(db: Db, sql: string): (params: readonly unknown[]) => Promise<R[]> {
  if (dialectOf(db) === 'postgres') {
    return async (params) => {
      const result = await db.executeQuery<Record<string, unknown>>(CompiledQuery.raw(sql, [...params]));
      return result.rows.map((row) => Object.values(row) as R);
    };
  }
  let statement: SQLite.Statement<unknown[], R> | undefined;
  return (params) =>
    withSqliteReader(db, (sqlite) => {
      statement ??= sqlite.prepare<unknown[], R>(sql).raw(true);
      return statement.all(...params);
    });
}
