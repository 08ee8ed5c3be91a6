import { sql, type Kysely } from 'kysely';

// Frozen in time like the migrations that use it (2026_11_21_090000 and 2026_11_21_100000):
// imports nothing but Kysely. PostgreSQL's side of the rollup triggers.
//
// Statement-level triggers with transition tables (REFERENCING NEW/OLD TABLE) aggregate all the
// rows of a statement and touch each rollup row once: measured the cheapest form on PostgreSQL
// (statements inlined in PL/pgSQL ~1.2× a trigger-free load; per-row calls of SQL helpers ~3×).
// Rows are upserted in key order so that concurrent writers (several server processes, READ
// COMMITTED) lock rollup rows in the same order; a deadlock left is retried by the writer.

export interface Rollup {
  table: string;
  /** The rollup's key columns, in primary-key order. */
  keys: readonly string[];
  /** The expression of each key over the source's aliases (`r` a scan, `v` a violation). */
  keyOf: readonly string[];
  /** Each counter column and its aggregate over the source. */
  values: readonly { column: string; aggregate: string }[];
  /** The counter whose zero means the rollup row stands for nothing and goes. */
  count: string;
}

const numbered = (n: number): string => Array.from({ length: n }, (_, i) => String(i + 1)).join(', ');

/** Adds what `source` (a FROM clause, maybe with WHERE) holds to the rollup. */
export function addRows(rollup: Rollup, source: string): string {
  const { table, keys, keyOf, values } = rollup;
  return `INSERT INTO ${table} (${[...keys, ...values.map((v) => v.column)].join(', ')})
    SELECT ${[...keyOf, ...values.map((v) => v.aggregate)].join(', ')} FROM ${source}
    GROUP BY ${numbered(keys.length)} ORDER BY ${numbered(keys.length)}
    ON CONFLICT (${keys.join(', ')}) DO UPDATE SET
    ${values.map((v) => `${v.column} = ${table}.${v.column} + excluded.${v.column}`).join(', ')};`;
}

/** Subtracts what `source` holds from the rollup; rows whose count reaches zero go. */
export function subtractRows(rollup: Rollup, source: string): string {
  const { table, keys, keyOf, values, count } = rollup;
  const matches = keys.map((key, i) => `${table}.${key} = d.k${i}`).join(' AND ');
  const keyColumns = keyOf.map((expression, i) => `${expression} AS k${i}`).join(', ');
  return `UPDATE ${table} SET ${values.map((v, i) => `${v.column} = ${table}.${v.column} - d.v${i}`).join(', ')}
    FROM (SELECT ${keyColumns}, ${values.map((v, i) => `${v.aggregate} AS v${i}`).join(', ')}
      FROM ${source} GROUP BY ${numbered(keys.length)} ORDER BY ${numbered(keys.length)}) d
    WHERE ${matches};
    DELETE FROM ${table} USING (SELECT DISTINCT ${keyColumns} FROM ${source}) d
    WHERE ${matches} AND ${table}.${count} = 0;`;
}

export interface TriggerSpec {
  name: string;
  /** e.g. `AFTER INSERT ON scans REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT`. */
  when: string;
  body: string;
  /** Row triggers return OLD/NEW; statement triggers return NULL. */
  returns?: string;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations see the schema of their day
export async function createTriggers(db: Kysely<any>, triggers: readonly TriggerSpec[]): Promise<void> {
  for (const trigger of triggers) {
    await sql
      .raw(
        `CREATE FUNCTION ${trigger.name}() RETURNS trigger LANGUAGE plpgsql AS $body$
        BEGIN
          ${trigger.body}
          RETURN ${trigger.returns ?? 'NULL'};
        END $body$`,
      )
      .execute(db);
    await sql.raw(`CREATE TRIGGER ${trigger.name} ${trigger.when} EXECUTE FUNCTION ${trigger.name}()`).execute(db);
  }
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see createTriggers
export async function dropTriggers(db: Kysely<any>, triggers: readonly TriggerSpec[]): Promise<void> {
  for (const trigger of triggers) await sql.raw(`DROP FUNCTION ${trigger.name}() CASCADE`).execute(db);
}

export const statementTrigger = (event: 'INSERT' | 'DELETE' | 'UPDATE', table: string): string => {
  const transition =
    event === 'INSERT'
      ? 'NEW TABLE AS new_rows'
      : event === 'DELETE'
        ? 'OLD TABLE AS old_rows'
        : 'OLD TABLE AS old_rows NEW TABLE AS new_rows';
  return `AFTER ${event} ON ${table} REFERENCING ${transition} FOR EACH STATEMENT`;
};
