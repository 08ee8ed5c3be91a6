import { sql, type Kysely } from 'kysely';
import { isPostgres } from './dialect';

// Frozen in time: never import application code here.

// A scan's tokens go up to 2^53 − 1, so about 1,024 of the largest on one day and key take the
// scan_days sum past a bigint: on PostgreSQL the rollup trigger then raised "bigint out of range"
// and the submit failed. numeric has no such bound and keeps the sum exact, also when scans are
// deleted again; the charts read it through a cast to double precision, saturated at 2^53 − 1.
// SQLite is left as it is: its integer arithmetic turns to floating point past 2^63 instead of
// failing, so submits go on; only a sum that went past 2^63 and was brought back under 2^53 by
// deletes reads inexactly (off by up to a few thousand tokens).
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations see the schema of their day
export async function up(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) await sql`ALTER TABLE scan_days ALTER COLUMN tokens TYPE numeric`.execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
export async function down(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) await sql`ALTER TABLE scan_days ALTER COLUMN tokens TYPE bigint`.execute(db);
}
