import { sql, type Kysely } from 'kysely';
import { isPostgres } from './dialect';

// Frozen in time: this file must never import application code. Change the schema with a new
// migration, not by editing this one.

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations see the schema of their day, not today's
export async function up(db: Kysely<any>): Promise<void> {
  // Text compares and sorts bytewise on PostgreSQL too, as in SQLite: list orders and unique keys
  // must not depend on the database's locale, and lower() then folds ASCII only, as SQLite's does.
  const text = isPostgres(db) ? sql`text collate "C"` : 'text';
  await db.schema
    .createTable('users')
    .addColumn('id', text, (c) => c.primaryKey())
    .addColumn('name', text, (c) => c.notNull())
    .addColumn('is_workspace_owner', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', text, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('tokens')
    .addColumn('id', text, (c) => c.primaryKey())
    .addColumn('user_id', text, (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('token_hash', text, (c) => c.notNull().unique())
    .addColumn('created_at', text, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('tokens_user_id').on('tokens').column('user_id').execute();

  await db.schema
    .createTable('organizations')
    .addColumn('id', text, (c) => c.primaryKey())
    .addColumn('name', text, (c) => c.notNull())
    .addColumn('plan', text, (c) =>
      c
        .notNull()
        .defaultTo('free')
        .check(sql`plan in ('free', 'team', 'enterprise')`),
    )
    .addColumn('created_at', text, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('memberships')
    .addColumn('organization_id', text, (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('user_id', text, (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('role', text, (c) => c.notNull().check(sql`role in ('owner', 'admin', 'member')`))
    .addColumn('joined_at', text, (c) => c.notNull())
    .addPrimaryKeyConstraint('memberships_pk', ['organization_id', 'user_id'])
    .execute();
  await db.schema.createIndex('memberships_user_id').on('memberships').column('user_id').execute();

  await db.schema
    .createTable('teams')
    .addColumn('id', text, (c) => c.primaryKey())
    .addColumn('organization_id', text, (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('name', text, (c) => c.notNull())
    .addColumn('name_key', text, (c) => c.notNull())
    .addColumn('created_at', text, (c) => c.notNull())
    .addUniqueConstraint('teams_organization_name_key', ['organization_id', 'name_key'])
    .execute();

  await db.schema
    .createTable('team_members')
    .addColumn('team_id', text, (c) => c.notNull().references('teams.id').onDelete('cascade'))
    .addColumn('user_id', text, (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('added_at', text, (c) => c.notNull())
    .addPrimaryKeyConstraint('team_members_pk', ['team_id', 'user_id'])
    .execute();
  await db.schema.createIndex('team_members_user_id').on('team_members').column('user_id').execute();

  await db.schema
    .createTable('policies')
    .addColumn('organization_id', text, (c) => c.primaryKey().references('organizations.id').onDelete('cascade'))
    .addColumn('max_tokens_per_scan', 'bigint')
    .addColumn('max_tokens_per_request', 'bigint')
    .addColumn('allowed_tools', text)
    .addColumn('blocked_tools', text, (c) => c.notNull().defaultTo('[]'))
    .addColumn('blocked_actions', text, (c) => c.notNull().defaultTo('[]'))
    .addColumn('updated_at', text, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('scans')
    .addColumn('id', text, (c) => c.primaryKey())
    // Scan and timeline times are epoch milliseconds: range filters, ordering and chart buckets
    // are then plain integer arithmetic in any SQL dialect.
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('tool', text, (c) => c.notNull())
    .addColumn('action', text, (c) => c.notNull())
    .addColumn('tokens', 'bigint', (c) => c.notNull().check(sql`tokens >= 0`))
    .addColumn('status', text, (c) => c.notNull().check(sql`status in ('pending', 'running', 'completed', 'failed')`))
    .addColumn('source', text, (c) => c.notNull().check(sql`source in ('submitted', 'imported')`))
    .addColumn('organization_id', text, (c) => c.references('organizations.id').onDelete('cascade'))
    .addColumn('submitted_by', text, (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('token_breakdown', text, (c) => c.notNull().defaultTo('{}'))
    .addColumn('request_count', 'integer', (c) => c.notNull())
    .addColumn('violation_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('worst_severity', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  // Lists are newest first with (created_at, id) as the total order; each visibility path
  // (everything, by submitter, by organization) and the tool filter get an index in that order.
  await db.schema.createIndex('scans_created_at_id').on('scans').columns(['created_at', 'id']).execute();
  await db.schema
    .createIndex('scans_submitted_by_created_at_id')
    .on('scans')
    .columns(['submitted_by', 'created_at', 'id'])
    .execute();
  await db.schema
    .createIndex('scans_organization_id_created_at_id')
    .on('scans')
    .columns(['organization_id', 'created_at', 'id'])
    .execute();
  await db.schema.createIndex('scans_tool_created_at_id').on('scans').columns(['tool', 'created_at', 'id']).execute();

  await db.schema
    .createTable('timeline_entries')
    .addColumn('scan_id', text, (c) => c.notNull().references('scans.id').onDelete('cascade'))
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('timestamp', 'bigint', (c) => c.notNull())
    .addColumn('action', text, (c) => c.notNull())
    .addColumn('tokens', 'bigint', (c) => c.notNull().check(sql`tokens >= 0`))
    .addPrimaryKeyConstraint('timeline_entries_pk', ['scan_id', 'seq'])
    .execute();
  await db.schema
    .createIndex('timeline_entries_scan_id_timestamp')
    .on('timeline_entries')
    .columns(['scan_id', 'timestamp'])
    .execute();

  await db.schema
    .createTable('violations')
    .addColumn('id', text, (c) => c.primaryKey())
    .addColumn('scan_id', text, (c) => c.notNull().references('scans.id').onDelete('cascade'))
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('rule', text, (c) => c.notNull())
    .addColumn('severity', text, (c) => c.notNull().check(sql`severity in ('low', 'medium', 'high', 'critical')`))
    .addColumn('message', text, (c) => c.notNull())
    .addColumn('timeline_index', 'integer')
    .addUniqueConstraint('violations_scan_id_seq', ['scan_id', 'seq'])
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    'violations',
    'timeline_entries',
    'scans',
    'policies',
    'team_members',
    'teams',
    'memberships',
    'organizations',
    'tokens',
    'users',
  ]) {
    await db.schema.dropTable(table).execute();
  }
}
