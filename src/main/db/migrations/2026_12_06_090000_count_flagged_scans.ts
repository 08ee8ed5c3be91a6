import { sql, type Kysely } from 'kysely';
import { isPostgres } from './dialect';
import { addRows, createTriggers, dropTriggers, statementTrigger, subtractRows, type Rollup } from './postgres-rollups';

// Frozen in time: never import application code here.
//
// A list's total with `status` or `has_violations` over a time range counted every visible scan in
// the range (the day and hour rollups key neither): at 10,000,000 scans 2.2–4.3 s for 90 days on
// SQLite, 1.0–5.1 s on PostgreSQL. Most scans are clean (completed, no violations), so these
// rollups count only the flagged ones, the others, by status and with violations or not: a total
// of flagged scans is a sum of them, a total that every clean scan matches is the day or hour
// rollups' sum less the flagged scans that miss it. A clean submit writes none of them.
//
// As the day rollups split the caller's view: flagged_organization_days per organization (every
// submitter of the organizations a caller manages), flagged_scan_days per submitter too (the
// caller's own scans elsewhere), keyed from the submitter so that those are one seek without
// another index; flagged_scan_hours as scan_hours, for the whole hours of a range's partial days.

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

interface FlaggedRollup {
  table: string;
  /** Primary-key order, which triggers and fills use. */
  keys: readonly string[];
}

const BY_SUBMITTER: FlaggedRollup = {
  table: 'flagged_scan_days',
  keys: ['submitted_by', 'organization_key', 'day', 'status', 'with_violations', 'tool', 'origin_key'],
};
const BY_ORGANIZATION: FlaggedRollup = {
  table: 'flagged_organization_days',
  keys: ['organization_key', 'day', 'status', 'with_violations', 'tool', 'origin_key'],
};
const BY_HOUR: FlaggedRollup = {
  table: 'flagged_scan_hours',
  keys: ['hour', 'tool', 'organization_key', 'submitted_by', 'origin_key', 'status', 'with_violations'],
};
const ROLLUPS = [BY_SUBMITTER, BY_ORGANIZATION, BY_HOUR];

/** A scan row alias (`NEW`, `OLD`, `r`) is flagged: not completed, or with violations. */
const flagged = (r: string): string => `(${r}.status <> 'completed' OR ${r}.violation_count > 0)`;

/** The expression of each key column over a scan row alias. */
const keyExpression = (r: string, column: string): string =>
  ({
    submitted_by: `${r}.submitted_by`,
    organization_key: `coalesce(${r}.organization_id, '')`,
    day: `${r}.created_at - ${r}.created_at % ${DAY_MS}`,
    hour: `${r}.created_at - ${r}.created_at % ${HOUR_MS}`,
    status: `${r}.status`,
    with_violations: `case when ${r}.violation_count > 0 then 1 else 0 end`,
    tool: `${r}.tool`,
    origin_key: `coalesce(${r}.origin_remote_id, '')`,
  })[column]!;
const keyOf = (rollup: FlaggedRollup, r: string): string[] => rollup.keys.map((column) => keyExpression(r, column));
const list = (items: readonly string[]): string => items.join(', ');
const numbered = (rollup: FlaggedRollup): string => rollup.keys.map((_, i) => i + 1).join(', ');

/** The columns of scans whose change moves a scan to another key, or in or out of the rollups. */
const WATCHED_COLUMNS = 'created_at, organization_id, submitted_by, tool, status, violation_count, origin_remote_id';

function sqliteTriggers(): string[] {
  // WHERE on a VALUES-less SELECT: the row goes in only if NEW is flagged.
  const add = (rollup: FlaggedRollup) => `INSERT INTO ${rollup.table} (${list(rollup.keys)}, scans)
    SELECT ${list(keyOf(rollup, 'NEW'))}, 1 WHERE ${flagged('NEW')}
    ON CONFLICT (${list(rollup.keys)}) DO UPDATE SET scans = scans + 1;`;
  // A clean OLD has a key (completed, 0) that no row holds: nothing to subtract.
  const remove = (rollup: FlaggedRollup) => {
    const oldKey = rollup.keys.map((column) => `${column} = ${keyExpression('OLD', column)}`).join(' AND ');
    return `UPDATE ${rollup.table} SET scans = scans - 1 WHERE ${oldKey};
      DELETE FROM ${rollup.table} WHERE ${oldKey} AND scans = 0;`;
  };
  const adds = ROLLUPS.map(add).join(' ');
  const removes = ROLLUPS.map(remove).join(' ');
  // One trigger per event for the three tables; a clean scan's insert or delete starts none.
  return [
    `CREATE TRIGGER scans_flagged_insert AFTER INSERT ON scans WHEN ${flagged('NEW')} BEGIN ${adds} END`,
    `CREATE TRIGGER scans_flagged_deleted AFTER DELETE ON scans WHEN ${flagged('OLD')} BEGIN ${removes} END`,
    `CREATE TRIGGER scans_flagged_update AFTER UPDATE OF ${WATCHED_COLUMNS} ON scans
      WHEN ${flagged('OLD')} OR ${flagged('NEW')} BEGIN ${removes} ${adds} END`,
  ];
}
const SQLITE_TRIGGERS = ['scans_flagged_insert', 'scans_flagged_deleted', 'scans_flagged_update'];

const postgresRollup = (rollup: FlaggedRollup): Rollup => ({
  table: rollup.table,
  keys: rollup.keys,
  keyOf: keyOf(rollup, 'r'),
  values: [{ column: 'scans', aggregate: 'count(*)' }],
  count: 'scans',
});
const adds = ROLLUPS.map((rollup) => addRows(postgresRollup(rollup), `new_rows r WHERE ${flagged('r')}`)).join('\n');
const subtracts = ROLLUPS.map((rollup) =>
  subtractRows(postgresRollup(rollup), `old_rows r WHERE ${flagged('r')}`),
).join('\n');
const POSTGRES_TRIGGERS = [
  { name: 'scans_flagged_insert', when: statementTrigger('INSERT', 'scans'), body: adds },
  { name: 'scans_flagged_deleted', when: statementTrigger('DELETE', 'scans'), body: subtracts },
  { name: 'scans_flagged_update', when: statementTrigger('UPDATE', 'scans'), body: subtracts + adds },
];

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations see the schema of their day
export async function up(db: Kysely<any>): Promise<void> {
  const postgres = isPostgres(db);
  const text = postgres ? 'text collate "C"' : 'text';
  const columnType = (column: string) =>
    column === 'day' || column === 'hour' ? 'bigint' : column === 'with_violations' ? 'integer' : text;
  for (const rollup of ROLLUPS) {
    // WITHOUT ROWID on SQLite: the count lives in the key's b-tree, read in key order.
    await sql
      .raw(
        `CREATE TABLE ${rollup.table} (${rollup.keys.map((column) => `${column} ${columnType(column)} not null`).join(', ')},
          scans integer not null, constraint ${rollup.table}_pk primary key (${list(rollup.keys)}))${postgres ? '' : ' WITHOUT ROWID'}`,
      )
      .execute(db);
  }
  // In key order: PostgreSQL's heap keeps the order rows came in, and a range of hours or days
  // then reads a few pages, not a page a row (3,447 pages for 12 hours' 3,354 rows at 10M).
  await sql
    .raw(
      `INSERT INTO flagged_scan_hours (${list(BY_HOUR.keys)}, scans)
        SELECT ${list(keyOf(BY_HOUR, 'r'))}, count(*) FROM scans r WHERE ${flagged('r')}
        GROUP BY ${numbered(BY_HOUR)} ORDER BY ${numbered(BY_HOUR)}`,
    )
    .execute(db);
  const dayOfHour = `hour - hour % ${DAY_MS}`;
  await sql
    .raw(
      `INSERT INTO flagged_scan_days (${list(BY_SUBMITTER.keys)}, scans)
        SELECT ${BY_SUBMITTER.keys.map((key) => (key === 'day' ? dayOfHour : key)).join(', ')}, sum(scans)
        FROM flagged_scan_hours GROUP BY ${numbered(BY_SUBMITTER)} ORDER BY ${numbered(BY_SUBMITTER)}`,
    )
    .execute(db);
  await sql
    .raw(
      `INSERT INTO flagged_organization_days (${list(BY_ORGANIZATION.keys)}, scans)
        SELECT ${list(BY_ORGANIZATION.keys)}, sum(scans) FROM flagged_scan_days
        GROUP BY ${numbered(BY_ORGANIZATION)} ORDER BY ${numbered(BY_ORGANIZATION)}`,
    )
    .execute(db);
  if (postgres) await createTriggers(db, POSTGRES_TRIGGERS);
  else for (const trigger of sqliteTriggers()) await sql.raw(trigger).execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
export async function down(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) await dropTriggers(db, POSTGRES_TRIGGERS);
  else for (const name of SQLITE_TRIGGERS) await sql`DROP TRIGGER ${sql.ref(name)}`.execute(db);
  for (const rollup of ROLLUPS) await db.schema.dropTable(rollup.table).execute();
}
