import { sql, type Kysely } from 'kysely';
import { isPostgres } from './dialect';

// Frozen in time: never import application code here.
//
// Summary pyramids of long timelines (see src/main/evidence/timeline-grid.ts at the time of
// writing): a grid per scan (origin, level-0 cell width, number of levels) and its cells, so that
// chart buckets over a million entries read a few hundred rows. Scans stored before this get
// theirs the first time their buckets are asked for.

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations see the schema of their day
export async function up(db: Kysely<any>): Promise<void> {
  const text = isPostgres(db) ? sql`text collate "C"` : 'text';
  await db.schema
    .createTable('timeline_grids')
    .addColumn('scan_id', text, (c) => c.primaryKey().references('scans.id').onDelete('cascade'))
    .addColumn('origin', 'bigint', (c) => c.notNull())
    .addColumn('width', 'bigint', (c) => c.notNull())
    .addColumn('levels', 'integer', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('timeline_cells')
    .addColumn('scan_id', text, (c) => c.notNull().references('timeline_grids.scan_id').onDelete('cascade'))
    .addColumn('level', 'integer', (c) => c.notNull())
    .addColumn('cell', 'bigint', (c) => c.notNull())
    .addColumn('count', 'bigint', (c) => c.notNull())
    .addColumn('tokens', 'bigint', (c) => c.notNull())
    .addColumn('min_tokens', 'bigint', (c) => c.notNull())
    .addColumn('max_tokens', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('timeline_cells_pk', ['scan_id', 'level', 'cell'])
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('timeline_cells').execute();
  await db.schema.dropTable('timeline_grids').execute();
}
