import { sql, type Kysely, type RawBuilder } from 'kysely';
import * as createScanCounts from './2026_11_21_090000_create_scan_counts';
import * as createDayRollups from './2026_11_21_100000_create_day_rollups';
import * as widenScanDaysTokens from './2026_11_25_180000_widen_scan_days_tokens';
import { isPostgres } from './dialect';
import {
  addRows,
  createTriggers,
  dropTriggers,
  statementTrigger,
  subtractRows,
  type Rollup,
  type TriggerSpec,
} from './postgres-rollups';

// Frozen in time: never import application code here.
//
// The overview shows "this laptop" and each remote apart or together (GET /v1/stats/*?origin=,
// GET /v1/scans?origin=), answered from the rollups as before. A pulled scan is submitted by the
// local user its remote fills, often in an organization that also holds scans made here, so no
// key of the rollups told them apart: each rollup gains `origin_key`, the scan's origin_remote_id
// ('' for a scan made here, and for a pulled one whose remote was removed, which is then local
// data). It ends each primary key, so the prefixes the stats read by are unchanged.
//
// The rollups are made again with the wider key (a primary key cannot be widened in place on
// SQLite), their triggers with them, and refilled from the scans: seconds on a million scans, as
// when they were first made. The triggers keep the names they had, and on SQLite an update of
// origin_remote_id (a remote removed sets it null) now moves a scan between keys too.

const DAY_MS = 86_400_000;

const SCAN_COUNTS_KEY = [
  'organization_key',
  'submitted_by',
  'tool',
  'status',
  'with_violations',
  'origin_key',
] as const;
const SCAN_DAYS_KEY = ['day', 'organization_key', 'submitted_by', 'tool', 'action', 'origin_key'] as const;
const VIOLATION_DAYS_KEY = ['day', 'organization_key', 'submitted_by', 'severity', 'rule', 'origin_key'] as const;

// Scan-side key expressions over a scan row alias (`NEW`, `OLD`, `s`, `r`).
const dayOf = (r: string): string => `${r}.created_at - ${r}.created_at % ${DAY_MS}`;
const orgOf = (r: string): string => `coalesce(${r}.organization_id, '')`;
const originOf = (r: string): string => `coalesce(${r}.origin_remote_id, '')`;

const scanCountsKeyOf = (r: string, withViolations: string): string[] => [
  orgOf(r),
  `${r}.submitted_by`,
  `${r}.tool`,
  `${r}.status`,
  withViolations,
  originOf(r),
];
const scanDaysKeyOf = (r: string): string[] => [
  dayOf(r),
  orgOf(r),
  `${r}.submitted_by`,
  `${r}.tool`,
  `${r}.action`,
  originOf(r),
];
/** `s` the scan, `v` the violation. */
const violationDaysKeyOf = (s: string, v: string): string[] => [
  dayOf(s),
  orgOf(s),
  `${s}.submitted_by`,
  `${v}.severity`,
  `${v}.rule`,
  originOf(s),
];

const list = (items: readonly string[]): string => items.join(', ');
/** `k1 = e1 AND k2 = e2 …`: a rollup row's key equal to the expressions. */
const keyEquals = (keys: readonly string[], exprs: readonly string[]): string =>
  keys.map((key, i) => `${key} = ${exprs[i]}`).join(' AND ');

// SQLite: per-row triggers.

function sqliteTriggers(): RawBuilder<unknown>[] {
  const countKey = (r: 'NEW' | 'OLD') => scanCountsKeyOf(r, `(${r}.violation_count > 0)`);
  const addCount = `INSERT INTO scan_counts (${list(SCAN_COUNTS_KEY)}, scans) VALUES (${list(countKey('NEW'))}, 1)
    ON CONFLICT (${list(SCAN_COUNTS_KEY)}) DO UPDATE SET scans = scans + 1;`;
  const removeCount = `UPDATE scan_counts SET scans = scans - 1 WHERE ${keyEquals(SCAN_COUNTS_KEY, countKey('OLD'))};
    DELETE FROM scan_counts WHERE ${keyEquals(SCAN_COUNTS_KEY, countKey('OLD'))} AND scans = 0;`;

  const addScan = `INSERT INTO scan_days (${list(SCAN_DAYS_KEY)}, scans, tokens, violations)
    VALUES (${list(scanDaysKeyOf('NEW'))}, 1, NEW.tokens, NEW.violation_count)
    ON CONFLICT (${list(SCAN_DAYS_KEY)}) DO UPDATE SET
      scans = scans + 1, tokens = tokens + excluded.tokens, violations = violations + excluded.violations;`;
  const oldScanKey = keyEquals(SCAN_DAYS_KEY, scanDaysKeyOf('OLD'));
  const removeScan = `UPDATE scan_days SET scans = scans - 1, tokens = tokens - OLD.tokens,
      violations = violations - OLD.violation_count WHERE ${oldScanKey};
    DELETE FROM scan_days WHERE ${oldScanKey} AND scans = 0;`;

  /** The violations of scan `r` added (+1) or removed (-1). */
  const scanViolations = (r: 'NEW' | 'OLD', sign: 1 | -1): string => {
    if (sign === 1) {
      return `INSERT INTO violation_days (${list(VIOLATION_DAYS_KEY)}, violations)
        SELECT ${list(violationDaysKeyOf(r, 'v'))}, count(*) FROM violations v WHERE v.scan_id = ${r}.id
        GROUP BY v.severity, v.rule
        ON CONFLICT (${list(VIOLATION_DAYS_KEY)}) DO UPDATE SET violations = violations + excluded.violations;`;
    }
    const scanKey = `day = ${dayOf(r)} AND organization_key = ${orgOf(r)} AND submitted_by = ${r}.submitted_by
      AND origin_key = ${originOf(r)}`;
    return `UPDATE violation_days SET violations = violations - (
        SELECT count(*) FROM violations v
        WHERE v.scan_id = ${r}.id AND v.severity = violation_days.severity AND v.rule = violation_days.rule)
      WHERE ${scanKey};
      DELETE FROM violation_days WHERE ${scanKey} AND violations = 0;`;
  };
  /** One violation added or removed, under its scan's key; nothing if the scan is gone. */
  const oneViolation = (v: 'NEW' | 'OLD', sign: 1 | -1): string => {
    if (sign === 1) {
      return `INSERT INTO violation_days (${list(VIOLATION_DAYS_KEY)}, violations)
        SELECT ${list(violationDaysKeyOf('s', v))}, 1 FROM scans s WHERE s.id = ${v}.scan_id
        ON CONFLICT (${list(VIOLATION_DAYS_KEY)}) DO UPDATE SET violations = violations + 1;`;
    }
    const key = `(${list(VIOLATION_DAYS_KEY)}) IN (
      SELECT ${list(violationDaysKeyOf('s', v))} FROM scans s WHERE s.id = ${v}.scan_id)`;
    return `UPDATE violation_days SET violations = violations - 1 WHERE ${key};
      DELETE FROM violation_days WHERE ${key} AND violations = 0;`;
  };

  return [
    `CREATE TRIGGER scans_count_insert AFTER INSERT ON scans BEGIN ${addCount} END`,
    `CREATE TRIGGER scans_count_delete AFTER DELETE ON scans BEGIN ${removeCount} END`,
    `CREATE TRIGGER scans_count_update
      AFTER UPDATE OF organization_id, submitted_by, tool, status, violation_count, origin_remote_id ON scans
      BEGIN ${removeCount} ${addCount} END`,
    `CREATE TRIGGER scans_day_insert AFTER INSERT ON scans BEGIN ${addScan} END`,
    // BEFORE: a cascade deletes the scan's violations after the scan row is gone, when their own
    // trigger can no longer find the scan's key; here it is still there to subtract.
    `CREATE TRIGGER scans_day_delete BEFORE DELETE ON scans BEGIN ${scanViolations('OLD', -1)} END`,
    `CREATE TRIGGER scans_day_deleted AFTER DELETE ON scans BEGIN ${removeScan} END`,
    `CREATE TRIGGER scans_day_update
      AFTER UPDATE OF created_at, organization_id, submitted_by, tool, action, tokens, violation_count,
        origin_remote_id ON scans
      BEGIN ${removeScan} ${addScan} ${scanViolations('OLD', -1)} ${scanViolations('NEW', 1)} END`,
    `CREATE TRIGGER violations_day_insert AFTER INSERT ON violations BEGIN ${oneViolation('NEW', 1)} END`,
    `CREATE TRIGGER violations_day_delete AFTER DELETE ON violations BEGIN ${oneViolation('OLD', -1)} END`,
    `CREATE TRIGGER violations_day_update AFTER UPDATE OF scan_id, severity, rule ON violations
      BEGIN ${oneViolation('OLD', -1)} ${oneViolation('NEW', 1)} END`,
  ].map((text) => sql.raw(text));
}

const SQLITE_TRIGGER_NAMES = [
  'scans_count_insert',
  'scans_count_delete',
  'scans_count_update',
  'scans_day_insert',
  'scans_day_delete',
  'scans_day_deleted',
  'scans_day_update',
  'violations_day_insert',
  'violations_day_delete',
  'violations_day_update',
];

// PostgreSQL: statement triggers over transition tables, as postgres-rollups.ts builds them.

/** The rollups in postgres-rollups.ts terms; `withViolations` is how the dialect stores a 0/1. */
function rollups(withViolations: string) {
  const scanCounts: Rollup = {
    table: 'scan_counts',
    keys: SCAN_COUNTS_KEY,
    keyOf: scanCountsKeyOf('r', withViolations),
    values: [{ column: 'scans', aggregate: 'count(*)' }],
    count: 'scans',
  };
  const scanDays: Rollup = {
    table: 'scan_days',
    keys: SCAN_DAYS_KEY,
    keyOf: scanDaysKeyOf('r'),
    values: [
      { column: 'scans', aggregate: 'count(*)' },
      { column: 'tokens', aggregate: 'sum(r.tokens)' },
      { column: 'violations', aggregate: 'sum(r.violation_count)' },
    ],
    count: 'scans',
  };
  const violationDays: Rollup = {
    table: 'violation_days',
    keys: VIOLATION_DAYS_KEY,
    keyOf: violationDaysKeyOf('r', 'v'),
    values: [{ column: 'violations', aggregate: 'count(*)' }],
    count: 'violations',
  };
  return { scanCounts, scanDays, violationDays };
}

// Stored as an integer (0/1) as on SQLite: PostgreSQL will not put a boolean in it.
const POSTGRES_WITH_VIOLATIONS = '(r.violation_count > 0)::int';
const SQLITE_WITH_VIOLATIONS = '(r.violation_count > 0)';

/** Violations (transition table `rows`) with their scans; none for a scan already deleted. */
const violationsOf = (rows: string): string => `${rows} v JOIN scans r ON r.id = v.scan_id`;
/** Scans (transition table `rows`) with the violations they have now. */
const scansWithViolations = (rows: string): string => `${rows} r JOIN violations v ON v.scan_id = r.id`;

function postgresTriggers(): TriggerSpec[] {
  const { scanCounts, scanDays, violationDays } = rollups(POSTGRES_WITH_VIOLATIONS);
  return [
    { name: 'scans_count_insert', when: statementTrigger('INSERT', 'scans'), body: addRows(scanCounts, 'new_rows r') },
    {
      name: 'scans_count_delete',
      when: statementTrigger('DELETE', 'scans'),
      body: subtractRows(scanCounts, 'old_rows r'),
    },
    {
      name: 'scans_count_update',
      when: statementTrigger('UPDATE', 'scans'),
      body: subtractRows(scanCounts, 'old_rows r') + addRows(scanCounts, 'new_rows r'),
    },
    { name: 'scans_day_insert', when: statementTrigger('INSERT', 'scans'), body: addRows(scanDays, 'new_rows r') },
    {
      name: 'scans_day_delete',
      when: 'BEFORE DELETE ON scans FOR EACH ROW',
      body: subtractRows(violationDays, 'violations v, (SELECT OLD.*) r WHERE v.scan_id = OLD.id'),
      returns: 'OLD',
    },
    {
      name: 'scans_day_deleted',
      when: statementTrigger('DELETE', 'scans'),
      body: subtractRows(scanDays, 'old_rows r'),
    },
    {
      name: 'scans_day_update',
      when: statementTrigger('UPDATE', 'scans'),
      body:
        subtractRows(scanDays, 'old_rows r') +
        addRows(scanDays, 'new_rows r') +
        subtractRows(violationDays, scansWithViolations('old_rows')) +
        addRows(violationDays, scansWithViolations('new_rows')),
    },
    {
      name: 'violations_day_insert',
      when: statementTrigger('INSERT', 'violations'),
      body: addRows(violationDays, violationsOf('new_rows')),
    },
    {
      name: 'violations_day_delete',
      when: statementTrigger('DELETE', 'violations'),
      body: subtractRows(violationDays, violationsOf('old_rows')),
    },
    {
      name: 'violations_day_update',
      when: statementTrigger('UPDATE', 'violations'),
      body: subtractRows(violationDays, violationsOf('old_rows')) + addRows(violationDays, violationsOf('new_rows')),
    },
  ];
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations see the schema of their day
type AnyDb = Kysely<any>;

async function createTables(db: AnyDb): Promise<void> {
  const postgres = isPostgres(db);
  const text = postgres ? sql`text collate "C"` : sql`text`;
  await db.schema
    .createTable('scan_counts')
    .addColumn('organization_key', text, (c) => c.notNull())
    .addColumn('submitted_by', text, (c) => c.notNull())
    .addColumn('tool', text, (c) => c.notNull())
    .addColumn('status', text, (c) => c.notNull())
    .addColumn('with_violations', 'integer', (c) => c.notNull())
    .addColumn('origin_key', text, (c) => c.notNull())
    .addColumn('scans', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('scan_counts_pk', [...SCAN_COUNTS_KEY])
    .execute();
  await db.schema
    .createTable('scan_days')
    .addColumn('day', 'bigint', (c) => c.notNull())
    .addColumn('organization_key', text, (c) => c.notNull())
    .addColumn('submitted_by', text, (c) => c.notNull())
    .addColumn('tool', text, (c) => c.notNull())
    .addColumn('action', text, (c) => c.notNull())
    .addColumn('origin_key', text, (c) => c.notNull())
    .addColumn('scans', 'integer', (c) => c.notNull())
    // numeric on PostgreSQL, where a bigint sum overflows (migration 2026_11_25_180000).
    .addColumn('tokens', postgres ? 'numeric' : 'bigint', (c) => c.notNull())
    .addColumn('violations', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('scan_days_pk', [...SCAN_DAYS_KEY])
    .execute();
  await db.schema
    .createTable('violation_days')
    .addColumn('day', 'bigint', (c) => c.notNull())
    .addColumn('organization_key', text, (c) => c.notNull())
    .addColumn('submitted_by', text, (c) => c.notNull())
    .addColumn('severity', text, (c) => c.notNull())
    .addColumn('rule', text, (c) => c.notNull())
    .addColumn('origin_key', text, (c) => c.notNull())
    .addColumn('violations', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('violation_days_pk', [...VIOLATION_DAYS_KEY])
    .execute();
}

/** Counts a rollup's rows from `source` into its empty table. */
const fill = ({ table, keys, keyOf, values }: Rollup, source: string): string =>
  `INSERT INTO ${table} (${list([...keys, ...values.map((v) => v.column)])})
    SELECT ${list([...keyOf, ...values.map((v) => v.aggregate)])} FROM ${source}
    GROUP BY ${keys.map((_, i) => i + 1).join(', ')}`;

async function dropRollups(db: AnyDb): Promise<void> {
  // The triggers of either width have these names; on PostgreSQL each is a function of its name.
  if (isPostgres(db)) await dropTriggers(db, postgresTriggers());
  else for (const name of SQLITE_TRIGGER_NAMES) await sql`DROP TRIGGER ${sql.ref(name)}`.execute(db);
  for (const table of ['scan_counts', 'scan_days', 'violation_days']) await db.schema.dropTable(table).execute();
}

export async function up(db: AnyDb): Promise<void> {
  await dropRollups(db);
  await createTables(db);
  const postgres = isPostgres(db);
  const { scanCounts, scanDays, violationDays } = rollups(postgres ? POSTGRES_WITH_VIOLATIONS : SQLITE_WITH_VIOLATIONS);
  for (const statement of [
    fill(scanCounts, 'scans r'),
    fill(scanDays, 'scans r'),
    fill(violationDays, violationsOf('violations')),
  ]) {
    await sql.raw(statement).execute(db);
  }
  if (postgres) await createTriggers(db, postgresTriggers());
  else for (const trigger of sqliteTriggers()) await trigger.execute(db);
}

/** The rollups as the earlier migrations made them, with their triggers, counted again. */
export async function down(db: AnyDb): Promise<void> {
  await dropRollups(db);
  await createScanCounts.up(db);
  await createDayRollups.up(db);
  await widenScanDaysTokens.up(db);
}
