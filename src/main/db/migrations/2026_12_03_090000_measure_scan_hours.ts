import { sql, type Kysely } from 'kysely';
import { up as createCountingScanHours } from './2026_11_30_090000_create_scan_hours';
import { isPostgres } from './dialect';
import { addRows, createTriggers, dropTriggers, statementTrigger, subtractRows, type Rollup } from './postgres-rollups';

// Frozen in time: never import application code here.
//
// Token charts in hour buckets (the overview's 24 hours and 7 days) read the scans themselves:
// at 10,000,000 scans 7 days of them took 2.9 s, the day buckets' partial days up to 0.2 s each.
// scan_hours counted scans only; it now keeps what scan_days keeps per day (the action in its
// key, the tokens and violations beside the count), so that whole hours are summed from it and
// only the minutes at a range's ends from the scans. The action comes last in the key: the
// list's total seeks by (hour, tool) as before and sums a few more rows.

const HOUR_MS = 3_600_000;
const KEY = ['hour', 'tool', 'organization_key', 'submitted_by', 'origin_key', 'action'] as const;

/** The key's expressions over a scan row alias (`NEW`, `OLD`, `r`). */
const keyOf = (r: string): string[] => [
  `${r}.created_at - ${r}.created_at % ${HOUR_MS}`,
  `${r}.tool`,
  `coalesce(${r}.organization_id, '')`,
  `${r}.submitted_by`,
  `coalesce(${r}.origin_remote_id, '')`,
  `${r}.action`,
];
const list = (items: readonly string[]): string => items.join(', ');
/** The columns of scans whose change moves a scan to another key or changes its measures. */
const WATCHED_COLUMNS =
  'created_at, tool, organization_id, submitted_by, origin_remote_id, action, tokens, violation_count';

const TRIGGERS = ['scans_hour_insert', 'scans_hour_deleted', 'scans_hour_update'];

function sqliteTriggers(): string[] {
  const add = `INSERT INTO scan_hours (${list(KEY)}, scans, tokens, violations)
    VALUES (${list(keyOf('NEW'))}, 1, NEW.tokens, NEW.violation_count)
    ON CONFLICT (${list(KEY)}) DO UPDATE SET
      scans = scans + 1, tokens = tokens + excluded.tokens, violations = violations + excluded.violations;`;
  const oldKey = KEY.map((column, i) => `${column} = ${keyOf('OLD')[i]}`).join(' AND ');
  const remove = `UPDATE scan_hours SET scans = scans - 1, tokens = tokens - OLD.tokens,
      violations = violations - OLD.violation_count WHERE ${oldKey};
    DELETE FROM scan_hours WHERE ${oldKey} AND scans = 0;`;
  return [
    `CREATE TRIGGER scans_hour_insert AFTER INSERT ON scans BEGIN ${add} END`,
    `CREATE TRIGGER scans_hour_deleted AFTER DELETE ON scans BEGIN ${remove} END`,
    `CREATE TRIGGER scans_hour_update AFTER UPDATE OF ${WATCHED_COLUMNS} ON scans BEGIN ${remove} ${add} END`,
  ];
}

const ROLLUP: Rollup = {
  table: 'scan_hours',
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
  { name: 'scans_hour_insert', when: statementTrigger('INSERT', 'scans'), body: addRows(ROLLUP, 'new_rows r') },
  { name: 'scans_hour_deleted', when: statementTrigger('DELETE', 'scans'), body: subtractRows(ROLLUP, 'old_rows r') },
  {
    name: 'scans_hour_update',
    when: statementTrigger('UPDATE', 'scans'),
    body: subtractRows(ROLLUP, 'old_rows r') + addRows(ROLLUP, 'new_rows r'),
  },
];

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations see the schema of their day
async function dropScanHours(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) await dropTriggers(db, POSTGRES_TRIGGERS);
  else for (const name of TRIGGERS) await sql`DROP TRIGGER ${sql.ref(name)}`.execute(db);
  await db.schema.dropTable('scan_hours').execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see dropScanHours
export async function up(db: Kysely<any>): Promise<void> {
  const postgres = isPostgres(db);
  const text = postgres ? 'text collate "C"' : 'text';
  await dropScanHours(db);
  // As scan_days: numeric tokens on PostgreSQL, where a bigint sum overflows; WITHOUT ROWID on
  // SQLite, the measures in the key's b-tree, read in key order by hour.
  await sql
    .raw(
      `CREATE TABLE scan_hours (hour bigint not null, tool ${text} not null, organization_key ${text} not null,
        submitted_by ${text} not null, origin_key ${text} not null, action ${text} not null,
        scans integer not null, tokens ${postgres ? 'numeric' : 'bigint'} not null, violations integer not null,
        constraint scan_hours_pk primary key (${list(KEY)}))${postgres ? '' : ' WITHOUT ROWID'}`,
    )
    .execute(db);
  await sql
    .raw(
      `INSERT INTO scan_hours (${list(KEY)}, scans, tokens, violations)
        SELECT ${list(keyOf('r'))}, count(*), sum(r.tokens), sum(r.violation_count) FROM scans r
        GROUP BY ${KEY.map((_, i) => i + 1).join(', ')}`,
    )
    .execute(db);
  if (postgres) await createTriggers(db, POSTGRES_TRIGGERS);
  else for (const trigger of sqliteTriggers()) await sql.raw(trigger).execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see dropScanHours
export async function down(db: Kysely<any>): Promise<void> {
  await dropScanHours(db);
  await createCountingScanHours(db);
}
