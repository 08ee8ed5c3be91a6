import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import { isPostgres } from './dialect';

// Frozen in time: never import application code here.
//
// The change feed (docs/contract/api.md#sync): every scan carries `change_seq`, a value of one
// store-wide counter taken when the scan is stored and again when its violations are
// re-evaluated. The counter is one row, bumped by the writing transaction: on PostgreSQL its row
// lock orders both the values and the commits, so no reader sees a seq before every smaller one
// is committed. `change_sequence.id` names this store's sequence: a feed cursor carries it, and a
// cursor from another store (or a copy of this one, which gets an id of its own) is refused.
// Scans stored before this share seq 0: a feed reads them first, in id order.
//
// The feed reads a caller's scans per bucket, from an index each: their own (submitted_by), and
// the scans of each organization they manage that are not their own (organization_id, with
// submitted_by last so that the not-their-own filter is read from the index, not the table).

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations see the schema of their day
export async function up(db: Kysely<any>): Promise<void> {
  const text = isPostgres(db) ? sql`text collate "C"` : sql`text`;
  await db.schema
    .createTable('change_sequence')
    .addColumn('id', text, (c) => c.primaryKey())
    .addColumn('last_seq', 'bigint', (c) => c.notNull())
    .execute();
  await db
    .insertInto('change_sequence')
    .values({ id: `seq_${randomUUID().replaceAll('-', '')}`, last_seq: 0 })
    .execute();

  await db.schema
    .alterTable('scans')
    .addColumn('change_seq', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createIndex('scans_changes_by_submitter')
    .on('scans')
    .columns(['submitted_by', 'change_seq', 'id'])
    .execute();
  await db.schema
    .createIndex('scans_changes_by_organization')
    .on('scans')
    .columns(['organization_id', 'change_seq', 'id', 'submitted_by'])
    .where(sql.ref('organization_id'), 'is not', null)
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('scans_changes_by_organization').execute();
  await db.schema.dropIndex('scans_changes_by_submitter').execute();
  await db.schema.alterTable('scans').dropColumn('change_seq').execute();
  await db.schema.dropTable('change_sequence').execute();
}
