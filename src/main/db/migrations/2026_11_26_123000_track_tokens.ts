import { sql, type Kysely } from 'kysely';
import { isPostgres } from './dialect';

// Frozen in time: never import application code here.
//
// Tokens get a hint (their prefix and last four characters, kept from when they are made: only
// their hash is stored) and the time of their last use, so that their users can tell them apart
// and revoke one. A browser session records the token that signed it in, so revoking the token
// ends it too; sessions made before this cannot say which token made them, so they are ended (a
// browser signs in again with its token link). `ends_at`, the earlier of the absolute and the idle
// deadline, lets ended sessions be found by an index and purged.

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations see the schema of their day
export async function up(db: Kysely<any>): Promise<void> {
  const text = isPostgres(db) ? sql`text collate "C"` : 'text';
  await db.schema.alterTable('tokens').addColumn('hint', text).execute();
  await db.schema.alterTable('tokens').addColumn('last_used_at', text).execute();

  await db.deleteFrom('sessions').execute();
  await db.schema
    .alterTable('sessions')
    .addColumn('token_id', text, (c) => c.references('tokens.id').onDelete('cascade'))
    .execute();
  await db.schema
    .alterTable('sessions')
    .addColumn('ends_at', text, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sessions_token_id').on('sessions').column('token_id').execute();
  await db.schema.createIndex('sessions_ends_at').on('sessions').column('ends_at').execute();
  // The desktop window's 30 days of idleness (2,592,000,000 ms) do not fit PostgreSQL's integer:
  // its session could not be stored on a PostgreSQL store.
  if (isPostgres(db)) await sql`ALTER TABLE sessions ALTER COLUMN idle_ms TYPE bigint`.execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.deleteFrom('sessions').execute();
  if (isPostgres(db)) await sql`ALTER TABLE sessions ALTER COLUMN idle_ms TYPE integer`.execute(db);
  await db.schema.dropIndex('sessions_ends_at').execute();
  await db.schema.dropIndex('sessions_token_id').execute();
  await db.schema.alterTable('sessions').dropColumn('ends_at').execute();
  await db.schema.alterTable('sessions').dropColumn('token_id').execute();
  await db.schema.alterTable('tokens').dropColumn('last_used_at').execute();
  await db.schema.alterTable('tokens').dropColumn('hint').execute();
}
