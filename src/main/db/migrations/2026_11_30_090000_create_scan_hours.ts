import { sql, type Kysely } from 'kysely';
import { isPostgres } from './dialect';
import { addRows, createTriggers, dropTriggers, statementTrigger, subtractRows, type Rollup } from './postgres-rollups';

// Frozen in time: never import application code here.
//
// The list's `total` over a time range sums whole days from scan_days and counted the partial days
// at its ends from the scans: at 10,000,000 scans half a day is 25,000 index entries, 6 ms on
// SQLite and 12 on PostgreSQL, the most of a `since` page's time. scan_hours counts scans per UTC
// hour under the keys the list filters by, so a partial day is its whole hours from here and at
// most an hour of scans at each end. Only what the list's count reads: no action, tokens or
// violations (scan_days has those, for the stats).

const HOUR_MS = 3_600_000;
const KEY = ['hour', 'tool', 'organization_key', 'submitted_by', 'origin_key'] as const;

/** The key's expressions over a scan row alias (`NEW`, `OLD`, `r`). */
const keyOf = (r: string): string[] => [
  `${r}.created_at - ${r}.created_at % ${HOUR_MS}`,
  `${r}.tool`,
  `coalesce(${r}.organization_id, '')`,
  `${r}.submitted_by`,
  `coalesce(${r}.origin_remote_id, '')`,
];
const list = (items: readonly string[]): string => items.join(', ');
/** The columns of scans whose change moves a scan to another key. */
const KEYED_COLUMNS = 'created_at, tool, organization_id, submitted_by, origin_remote_id';

const SQLITE_TRIGGERS = ['scans_hour_insert', 'scans_hour_deleted', 'scans_hour_update'];

function sqliteTriggers(): string[] {
  const add = `INSERT INTO scan_hours (${list(KEY)}, scans) VALUES (${list(keyOf('NEW'))}, 1)
    ON CONFLICT (${list(KEY)}) DO UPDATE SET scans = scans + 1;`;
  const oldKey = KEY.map((column, i) => `${column} = ${keyOf('OLD')[i]}`).join(' AND ');
  const remove = `UPDATE scan_hours SET scans = scans - 1 WHERE ${oldKey};
    DELETE FROM scan_hours WHERE ${oldKey} AND scans = 0;`;
  return [
    `CREATE TRIGGER scans_hour_insert AFTER INSERT ON scans BEGIN ${add} END`,
    `CREATE TRIGGER scans_hour_deleted AFTER DELETE ON scans BEGIN ${remove} END`,
    `CREATE TRIGGER scans_hour_update AFTER UPDATE OF ${KEYED_COLUMNS} ON scans BEGIN ${remove} ${add} END`,
  ];
}

const ROLLUP: Rollup = {
  table: 'scan_hours',
  keys: KEY,
  keyOf: keyOf('r'),
  values: [{ column: 'scans', aggregate: 'count(*)' }],
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
export async function up(db: Kysely<any>): Promise<void> {
  const postgres = isPostgres(db);
  const text = postgres ? 'text collate "C"' : 'text';
  // WITHOUT ROWID on SQLite: the count lives in the key's b-tree, read in key order by hour.
  await sql
    .raw(
      `CREATE TABLE scan_hours (hour bigint not null, tool ${text} not null, organization_key ${text} not null,
        submitted_by ${text} not null, origin_key ${text} not null, scans integer not null,
        constraint scan_hours_pk primary key (${list(KEY)}))${postgres ? '' : ' WITHOUT ROWID'}`,
    )
    .execute(db);
  await sql
    .raw(
      `INSERT INTO scan_hours (${list(KEY)}, scans)
        SELECT ${list(keyOf('r'))}, count(*) FROM scans r GROUP BY ${KEY.map((_, i) => i + 1).join(', ')}`,
    )
    .execute(db);
  if (postgres) await createTriggers(db, POSTGRES_TRIGGERS);
  else for (const trigger of sqliteTriggers()) await sql.raw(trigger).execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
export async function down(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) await dropTriggers(db, POSTGRES_TRIGGERS);
  else for (const name of SQLITE_TRIGGERS) await sql`DROP TRIGGER ${sql.ref(name)}`.execute(db);
  await db.schema.dropTable('scan_hours').execute();
}
