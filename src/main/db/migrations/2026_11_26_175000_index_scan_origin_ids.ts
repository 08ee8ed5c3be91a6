import { sql, type Kysely } from 'kysely';

// Frozen in time: never import application code here.
//
// A remote's link to a scan names its id there; GET /v1/scans?origin_id= resolves it among the
// pulled scans, from any remote. The origin index (remote, id) cannot serve a lookup by id alone,
// so this one leads with it, in the list's order; scans made here have none and stay out of it.

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations see the schema of their day
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex('scans_origin_id')
    .on('scans')
    .columns(['origin_id', 'created_at', 'id'])
    .where(sql.ref('origin_id'), 'is not', null)
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('scans_origin_id').execute();
}
