import type { Kysely } from 'kysely';

// Frozen in time: never import application code here.
//
// Summary pyramids keep only the cells where entries meet (see src/main/evidence/timeline-grid.ts
// at the time of writing): each row also says the lowest level it stands for and its first
// level-0 cell. Pyramids stored before this kept every cell of every level, which the new reader
// would misread, so they are dropped; each is built again the first time its buckets are asked for.

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations see the schema of their day
export async function up(db: Kysely<any>): Promise<void> {
  await db.deleteFrom('timeline_cells').execute();
  await db.deleteFrom('timeline_grids').execute();
  await db.schema
    .alterTable('timeline_cells')
    .addColumn('low_level', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('timeline_cells')
    .addColumn('first_cell', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.deleteFrom('timeline_cells').execute();
  await db.deleteFrom('timeline_grids').execute();
  await db.schema.alterTable('timeline_cells').dropColumn('first_cell').execute();
  await db.schema.alterTable('timeline_cells').dropColumn('low_level').execute();
}
