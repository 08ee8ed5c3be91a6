import { sql, type Kysely, type RawBuilder } from 'kysely';

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

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations see the schema of their day
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('scan_days')
    .addColumn('day', 'bigint', (c) => c.notNull())
    // '' for scans without an organization: a NULL would never conflict in the primary key.
    .addColumn('organization_key', 'text', (c) => c.notNull())
    .addColumn('submitted_by', 'text', (c) => c.notNull())
    .addColumn('tool', 'text', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('scans', 'integer', (c) => c.notNull())
    .addColumn('tokens', 'bigint', (c) => c.notNull())
    .addColumn('violations', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('scan_days_pk', [...SCAN_KEY])
    .execute();
  await db.schema
    .createTable('violation_days')
    .addColumn('day', 'bigint', (c) => c.notNull())
    .addColumn('organization_key', 'text', (c) => c.notNull())
    .addColumn('submitted_by', 'text', (c) => c.notNull())
    .addColumn('severity', 'text', (c) => c.notNull())
    .addColumn('rule', 'text', (c) => c.notNull())
    .addColumn('violations', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('violation_days_pk', [...VIOLATION_KEY])
    .execute();
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
  for (const trigger of TRIGGER_NAMES) await sql`DROP TRIGGER ${sql.ref(trigger)}`.execute(db);
  await db.schema.dropTable('violation_days').execute();
  await db.schema.dropTable('scan_days').execute();
}
