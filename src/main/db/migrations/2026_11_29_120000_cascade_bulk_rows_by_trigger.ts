import { sql, type Kysely } from 'kysely';
import { isPostgres } from './dialect';

// Frozen in time: never import application code here.
//
// PostgreSQL checks a foreign key with a query per inserted row: for timeline entries and
// pyramid cells, the rows written by the million, that check cost more than the row and its
// primary key together (a COPY of 200,000 entries: 0.44 s without it, 1.9 s with it). What the
// keys guaranteed now holds otherwise:
// - no entry or cell without its parent: every writer creates the timeline (or grid) in the
//   transaction that writes its rows, except an import's staged step, which first locks its staged
//   timeline and stops when it is gone (staged-timelines.repository.ts);
// - deleting a timeline or a grid deletes its rows (their ON DELETE CASCADE): a row trigger here,
//   so that deleting a scan or its owner still takes everything under it along.
// SQLite checks its keys in the same process for a fraction of that cost, and keeps them.

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations see the schema of their day
type AnyDb = Kysely<any>;

/** The child tables whose key to their parent a trigger replaces: [child, column, parent, parent key]. */
const CASCADES = [
  ['timeline_entries', 'timeline_id', 'timelines', 'id'],
  ['timeline_cells', 'scan_id', 'timeline_grids', 'scan_id'],
] as const;

const triggerName = (child: string) => `${child}_cascade`;

async function foreignKeyOf(db: AnyDb, child: string, parent: string): Promise<string | undefined> {
  const { rows } = await sql<{ name: string }>`
    select conname as name from pg_constraint
    where contype = 'f' and conrelid = ${child}::regclass and confrelid = ${parent}::regclass`.execute(db);
  return rows[0]?.name;
}

export async function up(db: AnyDb): Promise<void> {
  if (!isPostgres(db)) return;
  for (const [child, column, parent, key] of CASCADES) {
    const name = await foreignKeyOf(db, child, parent);
    if (name) await sql`alter table ${sql.id(child)} drop constraint ${sql.id(name)}`.execute(db);
    const trigger = triggerName(child);
    await sql`
      create function ${sql.id(trigger)}() returns trigger language plpgsql as $$
      begin
        delete from ${sql.id(child)} where ${sql.id(column)} = old.${sql.id(key)};
        return null;
      end $$`.execute(db);
    await sql`
      create trigger ${sql.id(trigger)} after delete on ${sql.id(parent)}
      for each row execute function ${sql.id(trigger)}()`.execute(db);
  }
}

export async function down(db: AnyDb): Promise<void> {
  if (!isPostgres(db)) return;
  for (const [child, column, parent, key] of CASCADES) {
    const trigger = triggerName(child);
    await sql`drop trigger ${sql.id(trigger)} on ${sql.id(parent)}`.execute(db);
    await sql`drop function ${sql.id(trigger)}()`.execute(db);
    await sql`
      alter table ${sql.id(child)} add foreign key (${sql.id(column)})
      references ${sql.id(parent)} (${sql.id(key)}) on delete cascade`.execute(db);
  }
}
