import { sql, type Kysely } from 'kysely';
import { isPostgres } from './dialect';

// Frozen in time: never import application code here.
//
// Browser sessions get a port they are bound to and an idle and an absolute lifetime. Sessions
// made before this had neither, so they are ended: a browser signs in again with its token link.

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations see the schema of their day
export async function up(db: Kysely<any>): Promise<void> {
  const text = isPostgres(db) ? sql`text collate "C"` : 'text';
  await db.deleteFrom('sessions').execute();
  await db.schema.alterTable('sessions').addColumn('port', 'integer').execute();
  await db.schema
    .alterTable('sessions')
    .addColumn('last_used_at', text, (c) => c.notNull())
    .execute();
  await db.schema
    .alterTable('sessions')
    .addColumn('idle_ms', 'integer', (c) => c.notNull())
    .execute();
  await db.schema
    .alterTable('sessions')
    .addColumn('expires_at', text, (c) => c.notNull())
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
export async function down(db: Kysely<any>): Promise<void> {
  for (const column of ['expires_at', 'idle_ms', 'last_used_at', 'port']) {
    await db.schema.alterTable('sessions').dropColumn(column).execute();
  }
}
