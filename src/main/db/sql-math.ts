import { sql, type Expression, type RawBuilder } from 'kysely';

// Drivers may bind JavaScript numbers as floating point; casting keeps bucket arithmetic in
// integers, the same way in SQLite and PostgreSQL.
export const bigint = (value: number): RawBuilder<number> => sql<number>`cast(${value} as bigint)`;

/** floor((value - origin) / width) for value >= origin, in integer arithmetic. */
export function bucketIndex(value: Expression<number>, origin: number, width: number): RawBuilder<number> {
  return sql<number>`cast((${value} - ${bigint(origin)}) / ${bigint(width)} as bigint)`;
}
