import type SQLite from 'better-sqlite3';
import type { SqliteStatement } from 'kysely';

/**
 * A statement that returns rows, read as arrays and made into objects here. better-sqlite3 builds
 * a row object one property at a time through V8's C++ API; a list page's 50 rows of 18 columns
 * took 0.53–0.63 ms that way and 0.37–0.42 ms as arrays turned into objects in JavaScript.
 *
 * The column names are read once. Only a `*` makes them depend on the schema: SQLite prepares a
 * statement again under a migration without a word, at its next step, and a `select *` then has
 * other or renamed columns. For such a statement pass `schemaVersion`, which reads the handle's
 * schema cookie (about a microsecond): the names are read again after a run that saw it change.
 */
export function objectRows(statement: SQLite.Statement, schemaVersion?: () => number): SqliteStatement {
  let version = schemaVersion?.();
  let names = columnNames(statement);
  const currentNames = (): string[] => {
    if (!schemaVersion) return names;
    const now = schemaVersion();
    if (now !== version) {
      version = now;
      names = columnNames(statement);
    }
    return names;
  };
  return {
    reader: true,
    all(parameters) {
      const rows = statement.raw(true).all(parameters) as unknown[][];
      const keys = currentNames();
      return rows.map((row) => toObject(keys, row));
    },
    run: (parameters) => statement.run(parameters),
    // The handle is busy while an iterator is open, too busy to read its schema cookie: a stream
    // takes better-sqlite3's own row objects.
    iterate: (parameters) => statement.raw(false).iterate(parameters),
  };
}

const columnNames = (statement: SQLite.Statement): string[] => statement.columns().map((column) => column.name);

// A later column of the same name wins, as in better-sqlite3's own row objects.
function toObject(names: string[], row: unknown[]): Record<string, unknown> {
  const object: Record<string, unknown> = {};
  for (let i = 0; i < names.length; i++) object[names[i]!] = row[i];
  return object;
}
