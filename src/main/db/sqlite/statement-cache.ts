import type SQLite from 'better-sqlite3';
import type { SqliteDatabase, SqliteStatement } from 'kysely';
import { objectRows } from './object-rows';

/** Prepared statements kept per handle, by SQL text: the least recently used go first. */
const STATEMENT_CACHE_SIZE = 256;
const PRAGMA = /^\s*pragma\b/i;

// Kysely prepares every query it runs; preparing cost a sixth of a scan submit's CPU, and the app
// runs the same few hundred statements over and over. better-sqlite3 statements are reusable, and
// a handle runs one query at a time, so a statement is never in use twice at once.
export function cachingStatements(sqlite: SQLite.Database): SqliteDatabase {
  const statements = new Map<string, SqliteStatement>();
  const schemaVersion = sqlite.prepare('pragma schema_version').pluck();
  const readSchemaVersion = (): number => schemaVersion.get() as number;
  const prepared = (text: string): SqliteStatement => {
    const statement = sqlite.prepare(text);
    if (!statement.reader) return statement;
    return objectRows(statement, text.includes('*') ? readSchemaVersion : undefined);
  };
  return {
    close: () => sqlite.close(),
    prepare(sql) {
      // A pragma's setting takes effect when it is prepared: run again, a cached one does nothing.
      if (PRAGMA.test(sql)) return prepared(sql);
      let statement = statements.get(sql);
      if (statement) statements.delete(sql);
      else {
        statement = prepared(sql);
        if (statements.size >= STATEMENT_CACHE_SIZE) statements.delete(statements.keys().next().value!);
      }
      statements.set(sql, statement);
      return statement;
    },
  };
}
