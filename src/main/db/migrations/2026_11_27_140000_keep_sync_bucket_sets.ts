import { sql, type Kysely } from 'kysely';
import { isPostgres } from './dialect';

// Frozen in time: never import application code here.
//
// The change feed's cursor names the buckets at each position by a digest once there are many of
// them (a user managing hundreds of organizations); the keys behind a digest are kept here, per
// user, so that the cursor stays a few hundred characters whatever the number of organizations.

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations see the schema of their day
export async function up(db: Kysely<any>): Promise<void> {
  const text = isPostgres(db) ? sql`text collate "C"` : sql`text`;
  await db.schema
    .createTable('sync_bucket_sets')
    .addColumn('user_id', text, (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('digest', text, (c) => c.notNull())
    .addColumn('keys', 'text', (c) => c.notNull())
    .addColumn('used_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('sync_bucket_sets_pk', ['user_id', 'digest'])
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('sync_bucket_sets').execute();
}
