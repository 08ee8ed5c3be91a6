import { sql, type Kysely } from 'kysely';
import { isPostgres } from './dialect';

// Frozen in time: never import application code here.
//
// A sync stores the scans it pulls from a remote with source 'pulled', which the scans table's
// check (source in ('submitted', 'imported')) refused. And a remote's link to a scan names its id
// there: GET /v1/scans?origin_id= resolves it among the pulled scans of every remote. The origin
// index (remote, id) cannot serve a lookup by id alone, so another leads with it, in the list's
// order; scans made here have no origin and stay out of it.
//
// PostgreSQL changes the check in place. SQLite cannot: the table is rebuilt the way SQLite's
// documentation says (a new table from the stored definition with the check widened, the rows
// copied, the old one dropped, the new one renamed, its indexes and triggers made again from
// their stored definitions). migrateToLatest runs SQLite migrations with foreign keys off, so
// dropping the old table cascades nowhere; its triggers go with it and are made again after the
// rows are copied, so the rollups they keep are not counted twice.

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations see the schema of their day
type AnyDb = Kysely<any>;

const NARROW = "source in ('submitted', 'imported')";
const WIDE = "source in ('submitted', 'imported', 'pulled')";

async function setSourceCheckPostgres(db: AnyDb, check: string): Promise<void> {
  const { rows } = await sql<{ name: string }>`
    select conname as name from pg_constraint
    where conrelid = 'scans'::regclass and contype = 'c' and pg_get_constraintdef(oid) like '%source%'`.execute(db);
  for (const { name } of rows) await sql`alter table scans drop constraint ${sql.id(name)}`.execute(db);
  await sql`alter table scans add constraint scans_source_check check (${sql.raw(check)})`.execute(db);
}

async function setSourceCheckSqlite(db: AnyDb, from: string, to: string): Promise<void> {
  const enforced = await sql<{ foreign_keys: number }>`pragma foreign_keys`.execute(db);
  if (enforced.rows[0]?.foreign_keys) throw new Error('rebuilding scans needs foreign keys off (migrate.ts)');
  const { rows } = await sql<{ type: string; name: string; sql: string | null }>`
    select type, name, sql from sqlite_master where tbl_name = 'scans' order by type = 'table' desc, rowid`.execute(db);
  const table = rows.find((row) => row.type === 'table')?.sql;
  if (!table?.includes(from)) throw new Error(`the scans table's definition has no check ${from}`);
  const definition = table.replace(from, to).replace(/^CREATE TABLE "?scans"?/i, 'CREATE TABLE "scans_rebuilt"');
  if (definition === table.replace(from, to)) throw new Error('the scans table is not defined as CREATE TABLE scans');
  await sql.raw(definition).execute(db);
  await sql`insert into scans_rebuilt select * from scans`.execute(db);
  await sql`drop table scans`.execute(db);
  // Other tables' triggers name scans, which is gone for the moment: the legacy rename leaves
  // them be instead of refusing.
  await sql`pragma legacy_alter_table = on`.execute(db);
  await sql`alter table scans_rebuilt rename to scans`.execute(db);
  await sql`pragma legacy_alter_table = off`.execute(db);
  // Indexes first, then triggers, as they were made; SQLite's own (autoindexes) have no definition.
  for (const row of rows) if (row.type === 'index' && row.sql) await sql.raw(row.sql).execute(db);
  for (const row of rows) if (row.type === 'trigger' && row.sql) await sql.raw(row.sql).execute(db);
  const broken = await sql`pragma foreign_key_check(scans)`.execute(db);
  if (broken.rows.length > 0) throw new Error('scans reference rows that do not exist');
}

export async function up(db: AnyDb): Promise<void> {
  if (isPostgres(db)) await setSourceCheckPostgres(db, WIDE);
  else await setSourceCheckSqlite(db, NARROW, WIDE);
  await db.schema
    .createIndex('scans_origin_id')
    .on('scans')
    .columns(['origin_id', 'created_at', 'id'])
    .where(sql.ref('origin_id'), 'is not', null)
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropIndex('scans_origin_id').execute();
  // Pulled scans cannot stay under the narrower check: they go, as unsynced data would.
  await db.deleteFrom('scans').where('source', '=', 'pulled').execute();
  if (isPostgres(db)) await setSourceCheckPostgres(db, NARROW);
  else await setSourceCheckSqlite(db, WIDE, NARROW);
}
