import { sql, type RawBuilder, type SqlBool } from 'kysely';
import { dialectOf } from './dialect';
import type { Executor } from './database';

/**
 * `column` is one of `values`. PostgreSQL takes the list as one array parameter (`= any($1)`):
 * a statement with hundreds of `in ($1, …)` parameters costs it more to parse and plan than to
 * run, and its text changes with the list's length. SQLite binds each value (it has no arrays).
 */
export function inList(db: Executor, column: string, values: readonly (string | number)[]): RawBuilder<SqlBool> {
  if (dialectOf(db) === 'postgres') return sql<SqlBool>`${sql.ref(column)} = any(${[...values]})`;
  return sql<SqlBool>`${sql.ref(column)} in (${sql.join(values)})`;
}
