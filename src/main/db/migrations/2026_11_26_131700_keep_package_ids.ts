import { sql, type Kysely } from 'kysely';
import { isPostgres } from './dialect';

// Frozen in time: never import application code here.
//
// An imported scan is stored under an id of the importer's own; the id it had in its package
// (an upstream id from a ticket, say) and what made the package are kept beside it, so that the
// importer can find the scan by that id. Scans imported before this kept neither: they stay null.
// The index serves the one lookup there is, an importer's own scans by package id, in the list's
// order: without created_at and id in it, SQLite preferred walking all of the user's scans in
// order over sorting the few matches. Submitted scans have no package id and stay out of it.

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations see the schema of their day
export async function up(db: Kysely<any>): Promise<void> {
  const text = isPostgres(db) ? sql`text collate "C"` : 'text';
  await db.schema.alterTable('scans').addColumn('package_id', text).execute();
  await db.schema.alterTable('scans').addColumn('package_origin', text).execute();
  await db.schema
    .createIndex('scans_package_id')
    .on('scans')
    .columns(['submitted_by', 'package_id', 'created_at', 'id'])
    .where(sql.ref('package_id'), 'is not', null)
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('scans_package_id').execute();
  await db.schema.alterTable('scans').dropColumn('package_origin').execute();
  await db.schema.alterTable('scans').dropColumn('package_id').execute();
}
