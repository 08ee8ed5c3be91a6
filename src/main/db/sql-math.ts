import { sql, type RawBuilder } from 'kysely';

// Drivers may bind JavaScript numbers as floating point; casting keeps bucket arithmetic in
// integers, the same way in SQLite and PostgreSQL.
export const bigint = (value: number): RawBuilder<number> => sql<number>`cast(${value} as bigint)`;

/**
 * The sum of a column of token counts in double precision: exact while it stays below 2^53, and
 * never the error an integer sum raises past 2^63 (SQLite's sum()) or a bigint's range.
 */
export const doubleSum = (column: string): RawBuilder<number> =>
  sql<number>`sum(cast(${sql.ref(column)} as double precision))`;
