import type { Kysely } from 'kysely';

// Frozen in time: never import application code here.
//
// The sync's convergence check sums a user's day rollups per organization (docs/sync.md): the
// primary key leads with the day, so reading one organization's rows, or one submitter's in it,
// walked the whole table. Rollup rows change in place as scans arrive; this index's columns never
// do, so keeping it costs a new row's insert only.

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations see the schema of their day
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex('scan_days_by_organization')
    .on('scan_days')
    .columns(['organization_key', 'submitted_by', 'day'])
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('scan_days_by_organization').execute();
}
