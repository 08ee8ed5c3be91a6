import { PostgresAdapter, type Kysely } from 'kysely';

// Frozen in time like the migrations that use it: imports nothing but Kysely.

/** Whether a migration runs on PostgreSQL; where SQL must differ, a migration branches on this. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations see the schema of their day
export const isPostgres = (db: Kysely<any>): boolean => db.getExecutor().adapter instanceof PostgresAdapter;
