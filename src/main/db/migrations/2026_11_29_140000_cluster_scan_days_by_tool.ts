import { sql, type Kysely } from 'kysely';
import { isPostgres } from './dialect';

// Frozen in time: never import application code here.
//
// The overview reads 90 days of scan_days grouped by (day, tool) and by (day, action). On SQLite
// the rows lived in a rowid table: each one read was a lookup from the primary-key index into the
// table, and the grouping a sort of every row (at 10,000,000 scans, 51,000 rows: 75 ms a request).
// A WITHOUT ROWID table keyed (day, tool, …) keeps the measures in the key's b-tree and its rows
// in the order of the by-tool grouping (11–15 ms; by action 25–33 ms, sorted but without lookups).
// The key's columns are the same, so the triggers' ON CONFLICT targets still name it. SQLite
// cannot change a table's key in place: the rows move out and back, a few tens of thousands, and
// no table is renamed (a rename would have SQLite re-check every trigger naming scan_days).
// PostgreSQL's heap has no such layout and groups by hashing: nothing changes there.

const COLUMNS = `day bigint not null, organization_key text not null, submitted_by text not null,
  tool text not null, action text not null, origin_key text not null,
  scans integer not null, tokens bigint not null, violations integer not null`;
const ALL = 'day, organization_key, submitted_by, tool, action, origin_key, scans, tokens, violations';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations see the schema of their day
async function remake(db: Kysely<any>, key: string, withoutRowid: boolean): Promise<void> {
  await sql`CREATE TEMP TABLE scan_days_moving AS SELECT ${sql.raw(ALL)} FROM scan_days`.execute(db);
  await sql`DROP TABLE scan_days`.execute(db);
  await sql
    .raw(
      `CREATE TABLE scan_days (${COLUMNS}, constraint scan_days_pk primary key (${key}))${withoutRowid ? ' WITHOUT ROWID' : ''}`,
    )
    .execute(db);
  await sql`INSERT INTO scan_days (${sql.raw(ALL)}) SELECT ${sql.raw(ALL)} FROM scan_days_moving`.execute(db);
  await sql`DROP TABLE scan_days_moving`.execute(db);
  await db.schema
    .createIndex('scan_days_by_organization')
    .on('scan_days')
    .columns(['organization_key', 'submitted_by', 'day'])
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see remake()
export async function up(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) return;
  await remake(db, 'day, tool, organization_key, submitted_by, action, origin_key', true);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see remake()
export async function down(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) return;
  await remake(db, 'day, organization_key, submitted_by, tool, action, origin_key', false);
}
