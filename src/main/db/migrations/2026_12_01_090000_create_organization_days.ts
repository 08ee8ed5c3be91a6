import { sql, type Kysely } from 'kysely';
import { isPostgres } from './dialect';
import { addRows, createTriggers, dropTriggers, statementTrigger, subtractRows, type Rollup } from './postgres-rollups';

// Frozen in time: never import application code here.
//
// The overview's token charts read 90 days of scan_days, one row per (day, organization,
// submitter, tool, action, origin): at 10,000,000 scans 51,600 rows a request, 30–60 ms whatever
// was summed. An owner or admin sees every submitter of their organizations, so for them the
// submitter splits rows for nothing. organization_days is scan_days without the submitter (6,300
// rows for those 90 days); the caller's own scans outside the organizations they manage still
// come from scan_days, through scan_days_by_submitter, which only a new scan_days row touches.

const DAY_MS = 86_400_000;
const KEY = ['day', 'organization_key', 'tool', 'action', 'origin_key'] as const;

/** The key's expressions over a scan row alias (`NEW`, `OLD`, `r`). */
const keyOf = (r: string): string[] => [
  `${r}.created_at - ${r}.created_at % ${DAY_MS}`,
  `coalesce(${r}.organization_id, '')`,
  `${r}.tool`,
  `${r}.action`,
  `coalesce(${r}.origin_remote_id, '')`,
];
const list = (items: readonly string[]): string => items.join(', ');
/** The columns of scans whose change moves a scan to another key or changes its measures. */
const WATCHED_COLUMNS = 'created_at, organization_id, tool, action, tokens, violation_count, origin_remote_id';

const SQLITE_TRIGGERS = [
  'scans_organization_day_insert',
  'scans_organization_day_deleted',
  'scans_organization_day_update',
];

function sqliteTriggers(): string[] {
  const add = `INSERT INTO organization_days (${list(KEY)}, scans, tokens, violations)
    VALUES (${list(keyOf('NEW'))}, 1, NEW.tokens, NEW.violation_count)
    ON CONFLICT (${list(KEY)}) DO UPDATE SET
      scans = scans + 1, tokens = tokens + excluded.tokens, violations = violations + excluded.violations;`;
  const oldKey = KEY.map((column, i) => `${column} = ${keyOf('OLD')[i]}`).join(' AND ');
  const remove = `UPDATE organization_days SET scans = scans - 1, tokens = tokens - OLD.tokens,
      violations = violations - OLD.violation_count WHERE ${oldKey};
    DELETE FROM organization_days WHERE ${oldKey} AND scans = 0;`;
  return [
    `CREATE TRIGGER scans_organization_day_insert AFTER INSERT ON scans BEGIN ${add} END`,
    `CREATE TRIGGER scans_organization_day_deleted AFTER DELETE ON scans BEGIN ${remove} END`,
    `CREATE TRIGGER scans_organization_day_update AFTER UPDATE OF ${WATCHED_COLUMNS} ON scans BEGIN ${remove} ${add} END`,
  ];
}

const ROLLUP: Rollup = {
  table: 'organization_days',
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
    name: 'scans_organization_day_insert',
    when: statementTrigger('INSERT', 'scans'),
    body: addRows(ROLLUP, 'new_rows r'),
  },
  {
    name: 'scans_organization_day_deleted',
    when: statementTrigger('DELETE', 'scans'),
    body: subtractRows(ROLLUP, 'old_rows r'),
  },
  {
    name: 'scans_organization_day_update',
    when: statementTrigger('UPDATE', 'scans'),
    body: subtractRows(ROLLUP, 'old_rows r') + addRows(ROLLUP, 'new_rows r'),
  },
];

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations see the schema of their day
export async function up(db: Kysely<any>): Promise<void> {
  const postgres = isPostgres(db);
  const text = postgres ? 'text collate "C"' : 'text';
  // As scan_days: on SQLite WITHOUT ROWID keyed by (day, tool, …), its rows in the by-tool
  // grouping's order; numeric tokens on PostgreSQL, where a bigint sum overflows.
  const primaryKey = postgres ? list(KEY) : 'day, tool, organization_key, action, origin_key';
  await sql
    .raw(
      `CREATE TABLE organization_days (day bigint not null, organization_key ${text} not null,
        tool ${text} not null, action ${text} not null, origin_key ${text} not null,
        scans integer not null, tokens ${postgres ? 'numeric' : 'bigint'} not null, violations integer not null,
        constraint organization_days_pk primary key (${primaryKey}))${postgres ? '' : ' WITHOUT ROWID'}`,
    )
    .execute(db);
  await sql
    .raw(
      `INSERT INTO organization_days (${list(KEY)}, scans, tokens, violations)
        SELECT ${list(KEY)}, sum(scans), sum(tokens), sum(violations) FROM scan_days GROUP BY ${list(KEY)}`,
    )
    .execute(db);
  await db.schema
    .createIndex('scan_days_by_submitter')
    .on('scan_days')
    .columns(['submitted_by', 'organization_key', 'day'])
    .execute();
  if (postgres) await createTriggers(db, POSTGRES_TRIGGERS);
  else for (const trigger of sqliteTriggers()) await sql.raw(trigger).execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
export async function down(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) await dropTriggers(db, POSTGRES_TRIGGERS);
  else for (const name of SQLITE_TRIGGERS) await sql`DROP TRIGGER ${sql.ref(name)}`.execute(db);
  await db.schema.dropIndex('scan_days_by_submitter').execute();
  await db.schema.dropTable('organization_days').execute();
}
