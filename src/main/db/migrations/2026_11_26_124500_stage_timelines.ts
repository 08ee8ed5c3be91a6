import { sql, type Kysely } from 'kysely';
import { isPostgres } from './dialect';

// Frozen in time: never import application code here.
//
// An import writes a long timeline in many short transactions, so that other writers get the
// store between them. Until its scan is stored, such a timeline belongs to no scan: `scan_id` is
// null (no reader finds it, since readers look timelines up by scan) and `staged_at` says when
// the import last wrote to it, so that a crashed import's leftovers can be told from a running
// one's. The scan's own transaction sets scan_id and clears staged_at.
//
// SQLite cannot drop NOT NULL in place: the table is rebuilt. Its entries reference it, so
// dropping the old table with foreign keys enforced would delete every entry (ON DELETE
// CASCADE): migrateToLatest runs SQLite migrations with them off, and this one checks the
// references it rebuilt before it ends.

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations see the schema of their day
type AnyDb = Kysely<any>;

async function rebuildSqlite(db: AnyDb, scanId: string, stagedAt: string): Promise<void> {
  const enforced = await sql<{ foreign_keys: number }>`pragma foreign_keys`.execute(db);
  if (enforced.rows[0]?.foreign_keys) throw new Error('rebuilding timelines needs foreign keys off (migrate.ts)');
  await sql`
    create table timelines_rebuilt (
      id integer primary key,
      scan_id text ${sql.raw(scanId)} unique references scans (id) on delete cascade
      ${sql.raw(stagedAt)}
    )`.execute(db);
  await sql`insert into timelines_rebuilt (id, scan_id) select id, scan_id from timelines`.execute(db);
  await sql`drop table timelines`.execute(db);
  await sql`alter table timelines_rebuilt rename to timelines`.execute(db);
  const broken = await sql`pragma foreign_key_check(timelines)`.execute(db);
  if (broken.rows.length > 0) throw new Error('timelines reference scans that do not exist');
}

export async function up(db: AnyDb): Promise<void> {
  if (isPostgres(db)) {
    await sql`alter table timelines alter column scan_id drop not null`.execute(db);
    await sql`alter table timelines add column staged_at bigint`.execute(db);
    return;
  }
  await rebuildSqlite(db, '', ', staged_at bigint');
}

export async function down(db: AnyDb): Promise<void> {
  // Staged timelines are unfinished imports: they go with their entries (foreign keys may be off).
  await sql`delete from timeline_entries where timeline_id in (select id from timelines where scan_id is null)`.execute(
    db,
  );
  await sql`delete from timelines where scan_id is null`.execute(db);
  if (isPostgres(db)) {
    await sql`alter table timelines drop column staged_at`.execute(db);
    await sql`alter table timelines alter column scan_id set not null`.execute(db);
    return;
  }
  await rebuildSqlite(db, 'not null', '');
}
