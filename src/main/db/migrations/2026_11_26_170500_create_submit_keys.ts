import { sql, type Kysely } from 'kysely';
import { isPostgres } from './dialect';

// Frozen in time: never import application code here.
//
// An idempotent submit (POST /v1/scans with an Idempotency-Key): the key a user sent, the scan it
// stored and a digest of the body, so that the same request sent again answers that scan instead
// of storing a second one, and another body under the same key is refused. Keyed by user: two
// users' keys never meet. The row goes with its scan (an organization deleted with its scans
// frees their keys) and with its user.

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations see the schema of their day
export async function up(db: Kysely<any>): Promise<void> {
  const text = isPostgres(db) ? sql`text collate "C"` : sql`text`;
  await db.schema
    .createTable('submit_keys')
    .addColumn('user_id', text, (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('key', text, (c) => c.notNull())
    .addColumn('scan_id', text, (c) => c.notNull().references('scans.id').onDelete('cascade'))
    // Hex SHA-256 of the body as a JSON value (key order and white space aside).
    .addColumn('body_sha256', text, (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('submit_keys_pk', ['user_id', 'key'])
    .execute();
  // The cascade from a deleted scan finds its key through this.
  await db.schema.createIndex('submit_keys_scan').on('submit_keys').column('scan_id').execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('submit_keys').execute();
}
