import { sql, type Kysely } from 'kysely';
import { isPostgres } from './dialect';
import { addRows, createTriggers, dropTriggers, statementTrigger, subtractRows, type Rollup } from './postgres-rollups';

// Frozen in time: never import application code here.
//
// The overview's 7 days in hour buckets sum scan_hours, one row per (hour, tool, organization,
// submitter, origin, action): at 10,000,000 scans 61,000 rows a request, 33 ms on SQLite and 69 on
// PostgreSQL, which spent half of it aggregating. As organization_days did for days: an owner or
// admin sees every submitter of their organizations, so organization_hours is scan_hours without
// the submitter, and the caller's own scans outside the organizations they manage still come from
// scan_hours, through scan_hours_by_submitter, which only a new scan_hours row touches.

const HOUR_MS = 3_600_000;
const KEY = ['hour', 'tool', 'organization_key', 'action', 'origin_key'] as const;

/** The key's expressions over a scan row alias (`NEW`, `OLD`, `r`). */
const keyOf = (r: string): string[] => [
  `${r}.created_at - ${r}.created_at % ${HOUR_MS}`,
  `${r}.tool`,
  `coalesce(${r}.organization_id, '')`,
  `${r}.action`,
  `coalesce(${r}.origin_remote_id, '')`,
];
const list = (items: readonly string[]): string => items.join(', ');
/** The columns of scans whose change moves a scan to another key or changes its measures. */
const WATCHED_COLUMNS = 'created_at, organization_id, tool, action, tokens, violation_count, origin_remote_id';

const SQLITE_TRIGGERS = [
  'scans_organization_hour_insert',
  'scans_organization_hour_deleted',
  'scans_organization_hour_update',
];

function sqliteTriggers(): string[] {
  const add = `INSERT INTO organization_hours (${list(KEY)}, scans, tokens, violations)
    VALUES (${list(keyOf('NEW'))}, 1, NEW.tokens, NEW.violation_count)
    ON CONFLICT (${list(KEY)}) DO UPDATE SET
      scans = scans + 1, tokens = tokens + excluded.tokens, violations = violations + excluded.violations;`;
  const oldKey = KEY.map((column, i) => `${column} = ${keyOf('OLD')[i]}`).join(' AND ');
  const remove = `UPDATE organization_hours SET scans = scans - 1, tokens = tokens - OLD.tokens,
      violations = violations - OLD.violation_count WHERE ${oldKey};
    DELETE FROM organization_hours WHERE ${oldKey} AND scans = 0;`;
  return [
    `CREATE TRIGGER scans_organization_hour_insert AFTER INSERT ON scans BEGIN ${add} END`,
    `CREATE TRIGGER scans_organization_hour_deleted AFTER DELETE ON scans BEGIN ${remove} END`,
    `CREATE TRIGGER scans_organization_hour_update AFTER UPDATE OF ${WATCHED_COLUMNS} ON scans BEGIN ${remove} ${add} END`,
  ];
}

const ROLLUP: Rollup = {
  table: 'organization_hours',
  keys: KEY,
  keyOf: keyOf('r'),
  values: [
    { column: 'scans', aggregate: 'count(*)' },
    { column: 'tokens', aggregate: 'sum(r.tokens)' },
    { column: 'violations', aggregate: 'sum(r.violation_count)' },
  ],
  count: 'scans',
};

const POSTGRES_TRIGGERS = [
  {
    name: 'scans_organization_hour_insert',
    when: statementTrigger('INSERT', 'scans'),
    body: addRows(ROLLUP, 'new_rows r'),
  },
  {
    name: 'scans_organization_hour_deleted',
    when: statementTrigger('DELETE', 'scans'),
    body: subtractRows(ROLLUP, 'old_rows r'),
  },
  {
    name: 'scans_organization_hour_update',
    when: statementTrigger('UPDATE', 'scans'),
    body: subtractRows(ROLLUP, 'old_rows r') + addRows(ROLLUP, 'new_rows r'),
  },
];

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations see the schema of their day
export async function up(db: Kysely<any>): Promise<void> {
  const postgres = isPostgres(db);
  const text = postgres ? 'text collate "C"' : 'text';
  // As scan_hours: WITHOUT ROWID on SQLite, keyed by (hour, tool, …), its rows in the by-tool
  // grouping's order; numeric tokens on PostgreSQL, where a bigint sum overflows.
  await sql
    .raw(
      `CREATE TABLE organization_hours (hour bigint not null, tool ${text} not null,
        organization_key ${text} not null, action ${text} not null, origin_key ${text} not null,
        scans integer not null, tokens ${postgres ? 'numeric' : 'bigint'} not null, violations integer not null,
        constraint organization_hours_pk primary key (${list(KEY)}))${postgres ? '' : ' WITHOUT ROWID'}`,
    )
    .execute(db);
  // In key order: PostgreSQL's heap keeps the order rows came in, which a range of hours reads.
  await sql
    .raw(
      `INSERT INTO organization_hours (${list(KEY)}, scans, tokens, violations)
        SELECT ${list(KEY)}, sum(scans), sum(tokens), sum(violations) FROM scan_hours
        GROUP BY ${list(KEY)} ORDER BY ${list(KEY)}`,
    )
    .execute(db);
  await db.schema
    .createIndex('scan_hours_by_submitter')
    .on('scan_hours')
    .columns(['submitted_by', 'organization_key', 'hour'])
    .execute();
  if (postgres) await createTriggers(db, POSTGRES_TRIGGERS);
  else for (const trigger of sqliteTriggers()) await sql.raw(trigger).execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
export async function down(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) await dropTriggers(db, POSTGRES_TRIGGERS);
  else for (const name of SQLITE_TRIGGERS) await sql`DROP TRIGGER ${sql.ref(name)}`.execute(db);
  await db.schema.dropIndex('scan_hours_by_submitter').execute();
  await db.schema.dropTable('organization_hours').execute();
}
