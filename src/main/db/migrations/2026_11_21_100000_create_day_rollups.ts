import { sql, type Kysely, type RawBuilder } from 'kysely';
import { isPostgres } from './dialect';
import {
  addRows,
  createTriggers,
  dropTriggers,
  statementTrigger,
  subtractRows,
  type TriggerSpec,
} from './postgres-rollups';

// Frozen in time: never import application code here.

// Per UTC day, what the overview's charts read (GET /v1/stats/tokens with day buckets, and
// /v1/stats/violations), keyed by everything their filters and the visibility rule look at. On a
// million scans over 90 days, 43,000 rows stand for the scans and fewer for 478,000 violations:
// a 90-day chart sums those instead of reading every scan (700 ms → tens of ms), and no longer
// holds the one connection for the better part of a second. Triggers keep both exact on every
// path that writes, as for scan_counts.

const DAY_MS = 86_400_000;
const day = (row: string): RawBuilder<unknown> => sql.raw(`${row}.created_at - ${row}.created_at % ${DAY_MS}`);
const organizationKey = (row: string): RawBuilder<unknown> => sql.raw(`coalesce(${row}.organization_id, '')`);

const SCAN_KEY = ['day', 'organization_key', 'submitted_by', 'tool', 'action'] as const;
const VIOLATION_KEY = ['day', 'organization_key', 'submitted_by', 'severity', 'rule'] as const;
const columns = (names: readonly string[]): RawBuilder<unknown> => sql.raw(names.join(', '));

const addScan = sql`
  INSERT INTO scan_days (${columns(SCAN_KEY)}, scans, tokens, violations)
  VALUES (${day('NEW')}, ${organizationKey('NEW')}, NEW.submitted_by, NEW.tool, NEW.action, 1, NEW.tokens,
    NEW.violation_count)
  ON CONFLICT (${columns(SCAN_KEY)}) DO UPDATE SET
    scans = scans + 1, tokens = tokens + excluded.tokens, violations = violations + excluded.violations;`;

const oldScanKey = sql`day = ${day('OLD')} AND organization_key = ${organizationKey('OLD')}
  AND submitted_by = OLD.submitted_by AND tool = OLD.tool AND action = OLD.action`;

const removeScan = sql`
  UPDATE scan_days SET scans = scans - 1, tokens = tokens - OLD.tokens, violations = violations - OLD.violation_count
  WHERE ${oldScanKey};
  DELETE FROM scan_days WHERE ${oldScanKey} AND scans = 0;`;

/** Adds (sign +1) or removes (-1) the violations of scan `row`, grouped by severity and rule. */
function scanViolations(row: 'NEW' | 'OLD', sign: 1 | -1): RawBuilder<unknown> {
  const key = sql`day = ${day(row)} AND organization_key = ${organizationKey(row)} AND submitted_by = ${sql.raw(row)}.submitted_by`;
  if (sign === 1) {
    return sql`
      INSERT INTO violation_days (${columns(VIOLATION_KEY)}, violations)
      SELECT ${day(row)}, ${organizationKey(row)}, ${sql.raw(row)}.submitted_by, v.severity, v.rule, count(*)
      FROM violations v WHERE v.scan_id = ${sql.raw(row)}.id GROUP BY v.severity, v.rule
      ON CONFLICT (${columns(VIOLATION_KEY)}) DO UPDATE SET violations = violations + excluded.violations;`;
  }
  return sql`
    UPDATE violation_days SET violations = violations - (
      SELECT count(*) FROM violations v
      WHERE v.scan_id = OLD.id AND v.severity = violation_days.severity AND v.rule = violation_days.rule)
    WHERE ${key};
    DELETE FROM violation_days WHERE ${key} AND violations = 0;`;
}

/** One violation (NEW or OLD) added or removed, with its scan's key; nothing if the scan is gone. */
function oneViolation(row: 'NEW' | 'OLD', sign: 1 | -1): RawBuilder<unknown> {
  const v = sql.raw(row);
  if (sign === 1) {
    return sql`
      INSERT INTO violation_days (${columns(VIOLATION_KEY)}, violations)
      SELECT ${day('s')}, ${organizationKey('s')}, s.submitted_by, ${v}.severity, ${v}.rule, 1
      FROM scans s WHERE s.id = ${v}.scan_id
      ON CONFLICT (${columns(VIOLATION_KEY)}) DO UPDATE SET violations = violations + 1;`;
  }
  const key = sql`(day, organization_key, submitted_by, severity, rule) IN (
    SELECT ${day('s')}, ${organizationKey('s')}, s.submitted_by, ${v}.severity, ${v}.rule
    FROM scans s WHERE s.id = ${v}.scan_id)`;
  return sql`
    UPDATE violation_days SET violations = violations - 1 WHERE ${key};
    DELETE FROM violation_days WHERE ${key} AND violations = 0;`;
}

const TRIGGERS = [
  sql`CREATE TRIGGER scans_day_insert AFTER INSERT ON scans BEGIN ${addScan} END`,
  // BEFORE: a cascade deletes the scan's violations after the scan row is gone, when their own
  // trigger can no longer find the scan's day and owner; here they are still there to subtract.
  sql`CREATE TRIGGER scans_day_delete BEFORE DELETE ON scans BEGIN ${scanViolations('OLD', -1)} END`,
  sql`CREATE TRIGGER scans_day_deleted AFTER DELETE ON scans BEGIN ${removeScan} END`,
  sql`CREATE TRIGGER scans_day_update
    AFTER UPDATE OF created_at, organization_id, submitted_by, tool, action, tokens, violation_count ON scans
    BEGIN ${removeScan} ${addScan} ${scanViolations('OLD', -1)} ${scanViolations('NEW', 1)} END`,
  sql`CREATE TRIGGER violations_day_insert AFTER INSERT ON violations BEGIN ${oneViolation('NEW', 1)} END`,
  sql`CREATE TRIGGER violations_day_delete AFTER DELETE ON violations BEGIN ${oneViolation('OLD', -1)} END`,
  sql`CREATE TRIGGER violations_day_update AFTER UPDATE OF scan_id, severity, rule ON violations
    BEGIN ${oneViolation('OLD', -1)} ${oneViolation('NEW', 1)} END`,
];
const TRIGGER_NAMES = [
  'scans_day_insert',
  'scans_day_delete',
  'scans_day_deleted',
  'scans_day_update',
  'violations_day_insert',
  'violations_day_delete',
  'violations_day_update',
];

// PostgreSQL. `r` is a scan row, `v` a violation row.
const dayOf = (r: string): string => `${r}.created_at - ${r}.created_at % ${DAY_MS}`;
const SCAN_DAYS = {
  table: 'scan_days',
  keys: SCAN_KEY,
  keyOf: [dayOf('r'), "coalesce(r.organization_id, '')", 'r.submitted_by', 'r.tool', 'r.action'],
  values: [
    { column: 'scans', aggregate: 'count(*)' },
    { column: 'tokens', aggregate: 'sum(r.tokens)' },
    { column: 'violations', aggregate: 'sum(r.violation_count)' },
  ],
  count: 'scans',
};
const VIOLATION_DAYS = {
  table: 'violation_days',
  keys: VIOLATION_KEY,
  keyOf: [dayOf('r'), "coalesce(r.organization_id, '')", 'r.submitted_by', 'v.severity', 'v.rule'],
  values: [{ column: 'violations', aggregate: 'count(*)' }],
  count: 'violations',
};
/** Violations (transition table `rows`) with their scans; none for a scan already deleted. */
const violationsOf = (rows: string): string => `${rows} v JOIN scans r ON r.id = v.scan_id`;
/** Scans (transition table `rows`) with the violations they have now. */
const scansWithViolations = (rows: string): string => `${rows} r JOIN violations v ON v.scan_id = r.id`;

const POSTGRES_TRIGGERS: TriggerSpec[] = [
  { name: 'scans_day_insert', when: statementTrigger('INSERT', 'scans'), body: addRows(SCAN_DAYS, 'new_rows r') },
  // Per row and BEFORE, as on SQLite: a cascade deletes the scan's violations after the scan row
  // is gone, when their own trigger can no longer find the scan's day and owner (it skips them).
  {
    name: 'scans_day_delete',
    when: 'BEFORE DELETE ON scans FOR EACH ROW',
    body: subtractRows(VIOLATION_DAYS, 'violations v, (SELECT OLD.*) r WHERE v.scan_id = OLD.id'),
    returns: 'OLD',
  },
  { name: 'scans_day_deleted', when: statementTrigger('DELETE', 'scans'), body: subtractRows(SCAN_DAYS, 'old_rows r') },
  {
    name: 'scans_day_update',
    when: statementTrigger('UPDATE', 'scans'),
    body:
      subtractRows(SCAN_DAYS, 'old_rows r') +
      addRows(SCAN_DAYS, 'new_rows r') +
      subtractRows(VIOLATION_DAYS, scansWithViolations('old_rows')) +
      addRows(VIOLATION_DAYS, scansWithViolations('new_rows')),
  },
  {
    name: 'violations_day_insert',
    when: statementTrigger('INSERT', 'violations'),
    body: addRows(VIOLATION_DAYS, violationsOf('new_rows')),
  },
  {
    name: 'violations_day_delete',
    when: statementTrigger('DELETE', 'violations'),
    body: subtractRows(VIOLATION_DAYS, violationsOf('old_rows')),
  },
  {
    name: 'violations_day_update',
    when: statementTrigger('UPDATE', 'violations'),
    body: subtractRows(VIOLATION_DAYS, violationsOf('old_rows')) + addRows(VIOLATION_DAYS, violationsOf('new_rows')),
  },
];

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations see the schema of their day
export async function up(db: Kysely<any>): Promise<void> {
  const text = isPostgres(db) ? sql`text collate "C"` : 'text';
  await db.schema
    .createTable('scan_days')
    .addColumn('day', 'bigint', (c) => c.notNull())
    // '' for scans without an organization: a NULL would never conflict in the primary key.
    .addColumn('organization_key', text, (c) => c.notNull())
    .addColumn('submitted_by', text, (c) => c.notNull())
    .addColumn('tool', text, (c) => c.notNull())
    .addColumn('action', text, (c) => c.notNull())
    .addColumn('scans', 'integer', (c) => c.notNull())
    .addColumn('tokens', 'bigint', (c) => c.notNull())
    .addColumn('violations', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('scan_days_pk', [...SCAN_KEY])
    .execute();
  await db.schema
    .createTable('violation_days')
    .addColumn('day', 'bigint', (c) => c.notNull())
    .addColumn('organization_key', text, (c) => c.notNull())
    .addColumn('submitted_by', text, (c) => c.notNull())
    .addColumn('severity', text, (c) => c.notNull())
    .addColumn('rule', text, (c) => c.notNull())
    .addColumn('violations', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('violation_days_pk', [...VIOLATION_KEY])
    .execute();
  if (isPostgres(db)) {
    await createTriggers(db, POSTGRES_TRIGGERS);
    await sql.raw(addRows(SCAN_DAYS, 'scans r')).execute(db);
    await sql.raw(addRows(VIOLATION_DAYS, violationsOf('violations'))).execute(db);
    return;
  }
  for (const trigger of TRIGGERS) await trigger.execute(db);
  await sql`
    INSERT INTO scan_days (${columns(SCAN_KEY)}, scans, tokens, violations)
    SELECT ${day('scans')}, ${organizationKey('scans')}, submitted_by, tool, action, count(*), sum(tokens),
      sum(violation_count)
    FROM scans GROUP BY 1, 2, 3, 4, 5`.execute(db);
  await sql`
    INSERT INTO violation_days (${columns(VIOLATION_KEY)}, violations)
    SELECT ${day('s')}, ${organizationKey('s')}, s.submitted_by, v.severity, v.rule, count(*)
    FROM violations v JOIN scans s ON s.id = v.scan_id GROUP BY 1, 2, 3, 4, 5`.execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
export async function down(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) await dropTriggers(db, POSTGRES_TRIGGERS);
  else for (const trigger of TRIGGER_NAMES) await sql`DROP TRIGGER ${sql.ref(trigger)}`.execute(db);
  await db.schema.dropTable('violation_days').execute();
  await db.schema.dropTable('scan_days').execute();
}
