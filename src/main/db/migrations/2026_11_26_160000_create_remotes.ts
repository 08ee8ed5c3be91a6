import { sql, type Kysely } from 'kysely';
import { isPostgres } from './dialect';

// Frozen in time: never import application code here.
//
// Sync (docs/sync.md): a store keeps the remotes it syncs with, and marks what came from one.
// A mirrored organization or team holds its id on the remote beside its local id, so that a
// second pull finds it again; a pulled scan holds the remote and its id there (unique per remote:
// the same scan reached through two remotes is two rows, one per remote). `sync_pushes` is the
// push log: a local scan sent to a remote, and what the remote answered. Removing a remote keeps
// what was pulled, as local data (the references are set null). The remote's token is never in
// the store: it sits in a 0600 file of the data directory.

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations see the schema of their day
export async function up(db: Kysely<any>): Promise<void> {
  const text = isPostgres(db) ? sql`text collate "C"` : sql`text`;
  await db.schema
    .createTable('remotes')
    .addColumn('id', text, (c) => c.primaryKey())
    .addColumn('name', text, (c) => c.notNull().unique())
    .addColumn('url', text, (c) => c.notNull())
    // The local user whose store the remote fills: pulled scans are theirs, their submits are pushed.
    .addColumn('user_id', text, (c) => c.notNull().references('users.id').onDelete('cascade'))
    // 'scandesk' (has the change feed) or 'upstream' (the upstream interface alone); null until reached.
    .addColumn('kind', text)
    // The remote user's id, as the remote said, once reached.
    .addColumn('remote_user_id', text)
    // PEM of a private CA that the remote's certificate must chain to; null: the system's.
    .addColumn('ca_pem', text)
    .addColumn('allow_insecure_http', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('background', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('interval_minutes', 'integer', (c) => c.notNull().defaultTo(15))
    // Epoch ms: the user's submits from then on are pushed (older ones were never the remote's).
    .addColumn('push_since', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    // Where the pull stands, opaque to all but the pull; saved in the transaction that stored a batch.
    .addColumn('cursor', text)
    .addColumn('last_sync_at', 'bigint')
    // JSON: the last sync's summary (src/shared/api/sync.ts).
    .addColumn('last_sync', text)
    // One sync per remote at a time, across every process on the store: a claim with a deadline.
    .addColumn('lease_owner', text)
    .addColumn('lease_until', 'bigint')
    .execute();

  for (const [table, remoteKey] of [
    ['organizations', 'remote_org_id'],
    ['teams', 'remote_team_id'],
  ] as const) {
    await db.schema
      .alterTable(table)
      .addColumn('remote_id', text, (c) => c.references('remotes.id').onDelete('set null'))
      .execute();
    await db.schema.alterTable(table).addColumn(remoteKey, text).execute();
    await db.schema
      .createIndex(`${table}_remote`)
      .on(table)
      .columns(['remote_id', remoteKey])
      .unique()
      .where(sql.ref('remote_id'), 'is not', null)
      .execute();
  }

  await db.schema
    .alterTable('scans')
    .addColumn('origin_remote_id', text, (c) => c.references('remotes.id').onDelete('set null'))
    .execute();
  await db.schema.alterTable('scans').addColumn('origin_id', text).execute();
  await db.schema
    .createIndex('scans_origin')
    .on('scans')
    .columns(['origin_remote_id', 'origin_id'])
    .unique()
    .where(sql.ref('origin_remote_id'), 'is not', null)
    .execute();

  await db.schema
    .createTable('sync_pushes')
    .addColumn('remote_id', text, (c) => c.notNull().references('remotes.id').onDelete('cascade'))
    .addColumn('scan_id', text, (c) => c.notNull().references('scans.id').onDelete('cascade'))
    // The scan's id on the remote, once acknowledged.
    .addColumn('remote_scan_id', text)
    .addColumn('pushed_at', 'bigint')
    // The remote's verdict under its own policy, as last heard (push answer or a later pull).
    .addColumn('remote_violation_count', 'integer')
    .addColumn('remote_worst_severity', 'integer')
    .addPrimaryKeyConstraint('sync_pushes_pk', ['remote_id', 'scan_id'])
    .execute();
  await db.schema
    .createIndex('sync_pushes_remote_scan')
    .on('sync_pushes')
    .columns(['remote_id', 'remote_scan_id'])
    .unique()
    .where(sql.ref('remote_scan_id'), 'is not', null)
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('sync_pushes').execute();
  await db.schema.dropIndex('scans_origin').execute();
  await db.schema.alterTable('scans').dropColumn('origin_id').execute();
  await db.schema.alterTable('scans').dropColumn('origin_remote_id').execute();
  for (const [table, remoteKey] of [
    ['teams', 'remote_team_id'],
    ['organizations', 'remote_org_id'],
  ] as const) {
    await db.schema.dropIndex(`${table}_remote`).execute();
    await db.schema.alterTable(table).dropColumn(remoteKey).execute();
    await db.schema.alterTable(table).dropColumn('remote_id').execute();
  }
  await db.schema.dropTable('remotes').execute();
}
