import { sql, type Kysely } from 'kysely';
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

const KEY = ['organization_key', 'submitted_by', 'tool', 'status', 'with_violations'] as const;

/** The key of a scan row (NEW or OLD in a trigger) in scan_counts' terms. */
const keyOf = (row: 'NEW' | 'OLD') =>
  sql.raw(
    `coalesce(${row}.organization_id, ''), ${row}.submitted_by, ${row}.tool, ${row}.status, ${row}.violation_count > 0`,
  );

const matchesKeyOf = (row: 'NEW' | 'OLD') =>
  sql.raw(
    `organization_key = coalesce(${row}.organization_id, '') AND submitted_by = ${row}.submitted_by` +
      ` AND tool = ${row}.tool AND status = ${row}.status AND with_violations = (${row}.violation_count > 0)`,
  );

const add = sql`
  INSERT INTO scan_counts (organization_key, submitted_by, tool, status, with_violations, scans)
  VALUES (${keyOf('NEW')}, 1)
  ON CONFLICT (${sql.join(KEY.map((column) => sql.ref(column)))}) DO UPDATE SET scans = scans + 1;`;

const remove = sql`
  UPDATE scan_counts SET scans = scans - 1 WHERE ${matchesKeyOf('OLD')};
  DELETE FROM scan_counts WHERE ${matchesKeyOf('OLD')} AND scans = 0;`;

const SCAN_COUNTS = {
  table: 'scan_counts',
  keys: KEY,
  // Stored as an integer (0/1) as on SQLite: PostgreSQL will not put a boolean in it.
  keyOf: ["coalesce(r.organization_id, '')", 'r.submitted_by', 'r.tool', 'r.status', '(r.violation_count > 0)::int'],
  values: [{ column: 'scans', aggregate: 'count(*)' }],
  count: 'scans',
};

const POSTGRES_TRIGGERS: TriggerSpec[] = [
  { name: 'scans_count_insert', when: statementTrigger('INSERT', 'scans'), body: addRows(SCAN_COUNTS, 'new_rows r') },
  {
    name: 'scans_count_delete',
    when: statementTrigger('DELETE', 'scans'),
    body: subtractRows(SCAN_COUNTS, 'old_rows r'),
  },
  {
    name: 'scans_count_update',
    when: statementTrigger('UPDATE', 'scans'),
    body: subtractRows(SCAN_COUNTS, 'old_rows r') + addRows(SCAN_COUNTS, 'new_rows r'),
  },
];

// The number of scans per (organization, submitter, tool, status, with violations or not): the
// scans list's `total` without a time range is a sum over these few rows instead of a count over
// every visible scan (~150 ms per page on a million scans). Triggers keep it exact on every path
// that writes scans, foreign-key cascades from deleting an organization or a user included.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations see the schema of their day
export async function up(db: Kysely<any>): Promise<void> {
  const text = isPostgres(db) ? sql`text collate "C"` : 'text';
  await db.schema
    .createTable('scan_counts')
    // '' for scans without an organization: a NULL would never conflict in the primary key.
    .addColumn('organization_key', text, (c) => c.notNull())
    .addColumn('submitted_by', text, (c) => c.notNull())
    .addColumn('tool', text, (c) => c.notNull())
    .addColumn('status', text, (c) => c.notNull())
    .addColumn('with_violations', 'integer', (c) => c.notNull())
    .addColumn('scans', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('scan_counts_pk', [...KEY])
    .execute();
  if (isPostgres(db)) {
    await createTriggers(db, POSTGRES_TRIGGERS);
    await sql.raw(addRows(SCAN_COUNTS, 'scans r')).execute(db);
    return;
  }
  await sql`CREATE TRIGGER scans_count_insert AFTER INSERT ON scans BEGIN ${add} END`.execute(db);
  await sql`CREATE TRIGGER scans_count_delete AFTER DELETE ON scans BEGIN ${remove} END`.execute(db);
  await sql`CREATE TRIGGER scans_count_update
    AFTER UPDATE OF organization_id, submitted_by, tool, status, violation_count ON scans
    BEGIN ${remove} ${add} END`.execute(db);
  await sql`
    INSERT INTO scan_counts (organization_key, submitted_by, tool, status, with_violations, scans)
    SELECT coalesce(organization_id, ''), submitted_by, tool, status, violation_count > 0, count(*)
    FROM scans GROUP BY 1, 2, 3, 4, 5`.execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
export async function down(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) await dropTriggers(db, POSTGRES_TRIGGERS);
  else {
    for (const trigger of ['scans_count_insert', 'scans_count_delete', 'scans_count_update']) {
      await sql`DROP TRIGGER ${sql.ref(trigger)}`.execute(db);
    }
  }
  await db.schema.dropTable('scan_counts').execute();
}
