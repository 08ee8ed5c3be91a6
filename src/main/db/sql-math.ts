import { sql, type RawBuilder } from 'kysely';

// Drivers may bind JavaScript numbers as floating point; casting keeps bucket arithmetic in
// integers, the same way in SQLite and PostgreSQL.
export const bigint = (value: number): RawBuilder<number> => sql<number>`cast(${value} as bigint)`;
