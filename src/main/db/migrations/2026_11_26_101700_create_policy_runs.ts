import { sql, type Kysely } from 'kysely';
import { isPostgres } from './dialect';

// Frozen in time: never import application code here.
//
// A policy preview or re-evaluation walks an organization's scans in many short steps instead of
// one long transaction. `policy_runs` lets one run per organization go at a time, across every
// server process sharing the store: a row is a claim, kept alive by its heartbeat, and a claim
// whose heartbeat stopped (its process died) may be taken over. A re-evaluation writes the new
// violations of the scans it changes into the two staging tables, a step at a time, and swaps them
// in at the end in one transaction, so that a reader sees every scan re-evaluated or none.

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations see the schema of their day
export async function up(db: Kysely<any>): Promise<void> {
  const text = isPostgres(db) ? sql`text collate "C"` : sql`text`;
  await db.schema
    .createTable('policy_runs')
    .addColumn('organization_id', text, (c) => c.primaryKey().references('organizations.id').onDelete('cascade'))
    .addColumn('run_id', text, (c) => c.notNull())
    // Epoch ms of the run's last sign of life.
    .addColumn('heartbeat_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('policy_staged_scans')
    .addColumn('run_id', text, (c) => c.notNull())
    .addColumn('scan_id', text, (c) => c.notNull().references('scans.id').onDelete('cascade'))
    .addColumn('violation_count', 'integer', (c) => c.notNull())
    .addColumn('worst_severity', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('policy_staged_scans_pk', ['run_id', 'scan_id'])
    .execute();
  // No foreign key: rows of a scan deleted meanwhile are skipped by the swap (it joins the staged
  // scans, which the delete cascades to) and removed with the rest of the run's rows.
  await db.schema
    .createTable('policy_staged_violations')
    .addColumn('run_id', text, (c) => c.notNull())
    .addColumn('scan_id', text, (c) => c.notNull())
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('id', text, (c) => c.notNull())
    .addColumn('rule', text, (c) => c.notNull())
    .addColumn('severity', text, (c) => c.notNull())
    .addColumn('message', text, (c) => c.notNull())
    .addColumn('timeline_index', 'integer')
    .addPrimaryKeyConstraint('policy_staged_violations_pk', ['run_id', 'scan_id', 'seq'])
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['policy_staged_violations', 'policy_staged_scans', 'policy_runs']) {
    await db.schema.dropTable(table).execute();
  }
}
