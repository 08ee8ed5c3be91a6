/**
 * Invariants of a store read straight from its tables, in either dialect: what crash and
 * concurrency tests check after the fact, against a recount.
 */
import { sql } from 'kysely';
import type { Db } from '../../src/main/db/database';
import { openDatabase } from '../../src/main/db/open-database';
import { databaseFile } from '../../src/main/workspace/data-dir';
import { testDatabaseFor } from './test-database';

/** The store of `dataDir` in this run (its SQLite file, or its PostgreSQL database), opened anew. */
export async function openTestStore(dataDir: string): Promise<Db> {
  return openDatabase((await testDatabaseFor(dataDir)) ?? { kind: 'sqlite', file: databaseFile(dataDir) });
}

const count = async (db: Db, query: ReturnType<typeof sql<{ n: number }>>): Promise<number> =>
  Number((await query.execute(db)).rows[0]?.n ?? 0);

/** Each rollup's sum beside the recount it stands for, and scans whose timeline disagrees with request_count. */
export async function storeInvariants(db: Db) {
  return {
    timelineMismatches: await count(
      db,
      sql`SELECT COUNT(*) AS n FROM scans s
        WHERE s.request_count <> (SELECT COUNT(*) FROM timeline_entries e JOIN timelines t ON t.id = e.timeline_id WHERE t.scan_id = s.id)`,
    ),
    scans: await count(db, sql`SELECT COUNT(*) AS n FROM scans`),
    scanCounts: await count(db, sql`SELECT COALESCE(SUM(scans), 0) AS n FROM scan_counts`),
    scanDays: await count(db, sql`SELECT COALESCE(SUM(scans), 0) AS n FROM scan_days`),
    scanDayTokens: await count(db, sql`SELECT COALESCE(SUM(tokens), 0) AS n FROM scan_days`),
    organizationDays: await count(db, sql`SELECT COALESCE(SUM(scans), 0) AS n FROM organization_days`),
    organizationDayTokens: await count(db, sql`SELECT COALESCE(SUM(tokens), 0) AS n FROM organization_days`),
    scanHours: await count(db, sql`SELECT COALESCE(SUM(scans), 0) AS n FROM scan_hours`),
    organizationHours: await count(db, sql`SELECT COALESCE(SUM(scans), 0) AS n FROM organization_hours`),
    organizationHourTokens: await count(db, sql`SELECT COALESCE(SUM(tokens), 0) AS n FROM organization_hours`),
    scanHourTokens: await count(db, sql`SELECT COALESCE(SUM(tokens), 0) AS n FROM scan_hours`),
    scanHourViolations: await count(db, sql`SELECT COALESCE(SUM(violations), 0) AS n FROM scan_hours`),
    flagged: await count(db, sql`SELECT COUNT(*) AS n FROM scans WHERE status <> 'completed' OR violation_count > 0`),
    flaggedScanDays: await count(db, sql`SELECT COALESCE(SUM(scans), 0) AS n FROM flagged_scan_days`),
    flaggedOrganizationDays: await count(db, sql`SELECT COALESCE(SUM(scans), 0) AS n FROM flagged_organization_days`),
    flaggedScanHours: await count(db, sql`SELECT COALESCE(SUM(scans), 0) AS n FROM flagged_scan_hours`),
    scanViolations: await count(db, sql`SELECT COALESCE(SUM(violation_count), 0) AS n FROM scans`),
    tokens: await count(db, sql`SELECT COALESCE(SUM(tokens), 0) AS n FROM scans`),
    violations: await count(db, sql`SELECT COUNT(*) AS n FROM violations`),
    violationDays: await count(db, sql`SELECT COALESCE(SUM(violations), 0) AS n FROM violation_days`),
  };
}

/** Fails with what differs when a rollup disagrees with its recount or a timeline with its scan. */
export function rollupProblems(invariants: Awaited<ReturnType<typeof storeInvariants>>): string[] {
  const problems: string[] = [];
  const same = (what: string, a: number, b: number): void => {
    if (a !== b) problems.push(`${what}: ${a} against ${b}`);
  };
  same('scans whose request_count disagrees with their timeline', invariants.timelineMismatches, 0);
  same('scan_counts', invariants.scanCounts, invariants.scans);
  same('scan_days', invariants.scanDays, invariants.scans);
  same('scan_days tokens', invariants.scanDayTokens, invariants.tokens);
  same('organization_days', invariants.organizationDays, invariants.scans);
  same('organization_days tokens', invariants.organizationDayTokens, invariants.tokens);
  same('scan_hours', invariants.scanHours, invariants.scans);
  same('organization_hours', invariants.organizationHours, invariants.scans);
  same('organization_hours tokens', invariants.organizationHourTokens, invariants.tokens);
  same('scan_hours tokens', invariants.scanHourTokens, invariants.tokens);
  same('scan_hours violations', invariants.scanHourViolations, invariants.scanViolations);
  same('flagged_scan_days', invariants.flaggedScanDays, invariants.flagged);
  same('flagged_organization_days', invariants.flaggedOrganizationDays, invariants.flagged);
  same('flagged_scan_hours', invariants.flaggedScanHours, invariants.flagged);
  same('violation_days', invariants.violationDays, invariants.violations);
  return problems;
}
