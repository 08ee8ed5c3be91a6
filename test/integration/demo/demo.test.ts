import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { Db } from '../../../src/main/db/database';
import { dialectOf } from '../../../src/main/db/dialect';
import { runDemo, type DemoSummary } from '../../../src/main/demo/demo.service';
import { listOrganizationsOfUser } from '../../../src/main/organizations/organizations.repository';
import { tokenFile } from '../../../src/main/workspace/data-dir';
import { listScans } from '../../../src/main/scans/scans.service';
import { findUserByToken, findWorkspaceOwner } from '../../../src/main/users/users.repository';
import { WorkspaceError, openWorkspace } from '../../../src/main/workspace/workspace';
import { SEVERITY_RANK } from '../../../src/shared/policy/severity';
import { snapshotDatabase } from '../../helpers/assertions';
import { openTestStore, rollupProblems, storeInvariants } from '../../helpers/store-checks';
import { testDatabaseFor } from '../../helpers/test-database';
import { entriesWithScan } from '../../helpers/timeline-rows';

const NOW = Date.parse('2026-11-21T12:00:00.000Z');
const SCANS = 2_000;

/** Rows grouped by scan_id, in their order (Map.groupBy is not in Node 20). */
function byScan<T extends { scan_id: string }>(rows: readonly T[]): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const row of rows) {
    const group = groups.get(row.scan_id);
    if (group) group.push(row);
    else groups.set(row.scan_id, [row]);
  }
  return groups;
}

describe('scandesk demo into a data directory', () => {
  const root = mkdtempSync(join(tmpdir(), 'scandesk-demo-'));
  const dirA = join(root, 'a');
  const dirB = join(root, 'b');
  let summary: DemoSummary;
  let db: Db;
  const progress: [number, number][] = [];

  beforeAll(async () => {
    summary = await runDemo({
      dataDir: dirA,
      database: await testDatabaseFor(dirA),
      scans: SCANS,
      seed: 7,
      now: NOW,
      batchSize: 300,
      onProgress: (done, total) => progress.push([done, total]),
    });
    db = await openTestStore(dirA);
  });

  afterAll(async () => {
    await db?.destroy();
    rmSync(root, { recursive: true, force: true });
  });

  it('reports what it stored and its progress per batch', async () => {
    expect(summary.scans).toBe(SCANS);
    expect(summary.createdToken).toBe(true);
    expect(summary.organizations).toBe(4);
    expect(progress.at(-1)).toEqual([SCANS, SCANS]);
    expect(progress.map(([done]) => done)).toEqual([...progress.map(([done]) => done)].sort((a, b) => a - b));
    const count = async (table: 'scans' | 'timeline_entries' | 'violations' | 'organizations'): Promise<number> =>
      Number(
        (
          await db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    expect(await count('scans')).toBe(SCANS);
    expect(await count('timeline_entries')).toBe(summary.timelineEntries);
    expect(await count('violations')).toBe(summary.violations);
    expect(await count('organizations')).toBe(4);
    expect(summary.timelineEntries).toBeGreaterThan(SCANS * 5);
    expect(summary.violations).toBeGreaterThan(0);
  });

  it('leaves the indexes and foreign keys as a fresh store has them (the load drops and rebuilds them)', async () => {
    const schema = async (store: Db) =>
      dialectOf(store) === 'sqlite'
        ? (
            await sql<{ name: string; sql: string | null }>`
              select name, sql from sqlite_master where type = 'index' and tbl_name = 'scans' order by name`.execute(
              store,
            )
          ).rows
        : (
            await sql<{ name: string; sql: string }>`
              select indexname as name, indexdef as sql from pg_indexes where tablename = 'scans'
              union all
              select conname, pg_get_constraintdef(oid) from pg_constraint
              where contype = 'f' and conrelid in ('scans'::regclass, 'timelines'::regclass, 'violations'::regclass)
              order by name`.execute(store)
          ).rows;
    const fresh = join(root, 'fresh');
    const workspace = await openWorkspace(fresh, { database: await testDatabaseFor(fresh) });
    try {
      const expected = await schema(workspace.db);
      expect(expected.length).toBeGreaterThan(3);
      expect(await schema(db)).toEqual(expected);
    } finally {
      await workspace.close();
    }
  });

  it("leaves the scans' pages all-visible on PostgreSQL, so the list's index-only scans stay in the index", async () => {
    if (dialectOf(db) === 'sqlite') return;
    const { rows } = await sql<{ visible: boolean }>`
      select relallvisible > 0 and relallvisible = relpages as visible from pg_class where relname = 'scans'`.execute(
      db,
    );
    expect(rows).toEqual([{ visible: true }]);
  });

  it('keeps the rollups equal to a recount', async () => {
    expect(rollupProblems(await storeInvariants(db))).toEqual([]);
  });

  it('keeps every denormalized column consistent with the timeline and violations tables', async () => {
    const scans = await db.selectFrom('scans').selectAll().execute();
    const entries = await entriesWithScan(db).orderBy('scan_id').orderBy('seq').execute();
    const violations = await db.selectFrom('violations').selectAll().orderBy('scan_id').orderBy('seq').execute();
    const timelineOf = byScan(entries);
    const violationsOf = byScan(violations);
    for (const scan of scans) {
      const timeline = timelineOf.get(scan.id) ?? [];
      const found = violationsOf.get(scan.id) ?? [];
      expect(scan.source).toBe('submitted');
      expect(scan.request_count).toBe(timeline.length);
      expect(timeline.map((entry) => entry.seq)).toEqual(timeline.map((_, seq) => seq));
      expect(scan.tokens).toBe(timeline.reduce((sum, entry) => sum + entry.tokens, 0));
      expect(timeline[0]!.timestamp).toBeGreaterThan(scan.created_at);
      for (let i = 1; i < timeline.length; i++)
        expect(timeline[i]!.timestamp).toBeGreaterThan(timeline[i - 1]!.timestamp);
      const breakdown = JSON.parse(scan.token_breakdown) as Record<string, number>;
      expect(Object.values(breakdown).reduce((sum, n) => sum + n, 0)).toBe(scan.tokens);
      expect(scan.violation_count).toBe(found.length);
      expect(found.map((violation) => violation.seq)).toEqual(found.map((_, seq) => seq));
      expect(scan.worst_severity).toBe(Math.max(0, ...found.map((violation) => SEVERITY_RANK[violation.severity])));
      if (scan.organization_id === null) expect(found).toEqual([]);
      for (const violation of found) {
        if (violation.timeline_index !== null) expect(violation.timeline_index).toBeLessThan(timeline.length);
      }
    }
  });

  it('lets the workspace owner see every organization as owner and every scan', async () => {
    const owner = await findWorkspaceOwner(db);
    const organizations = await listOrganizationsOfUser(db, owner!.id);
    expect(organizations).toHaveLength(4);
    expect(organizations.every((organization) => organization.role === 'owner')).toBe(true);
    const page = await listScans(db, owner!.id, { limit: 5, offset: 0 });
    expect(page.total).toBe(SCANS);
    const withViolations = await listScans(db, owner!.id, { limit: 1, offset: 0, has_violations: true });
    expect(withViolations.total).toBeGreaterThan(SCANS * 0.05);
    expect(withViolations.total).toBeLessThan(SCANS * 0.4);
  });

  it('gives identical table contents for the same seed in another directory', async () => {
    await runDemo({ dataDir: dirB, database: await testDatabaseFor(dirB), scans: SCANS, seed: 7, now: NOW });
    const other = await openTestStore(dirB);
    try {
      // Only the workspace owner and the store's change sequence (made at first start, with random
      // ids and a token) differ, and the change seqs, which count the load's batches.
      const normalized = async (handle: Db): Promise<Record<string, unknown[]>> => {
        const owner = await findWorkspaceOwner(handle);
        const sequence = await handle.selectFrom('change_sequence').select('id').executeTakeFirstOrThrow();
        const snapshot = await snapshotDatabase(handle);
        delete snapshot.tokens;
        return Object.fromEntries(
          Object.entries(snapshot).map(([table, rows]) => [
            table,
            rows
              .map((row) => String(row).replaceAll(owner!.id, '<owner>').replaceAll(sequence.id, '<sequence>'))
              .map((row) => row.replace(/"(change_seq|last_seq)":\d+/, '"$1":<seq>'))
              .filter((row) => !row.includes('"is_workspace_owner":1'))
              .sort(),
          ]),
        );
      };
      const [a, b] = [await normalized(db), await normalized(other)];
      expect(a.scans).toHaveLength(SCANS);
      expect(b).toEqual(a);
    } finally {
      await other.destroy();
    }
  });

  it('adds to an existing data directory, keeping its owner and token', async () => {
    const dir = join(root, 'existing');
    const workspace = await openWorkspace(dir, { database: await testDatabaseFor(dir) });
    const owner = await findWorkspaceOwner(workspace.db);
    await workspace.close();
    const token = readFileSync(tokenFile(dir), 'utf8');

    const result = await runDemo({ dataDir: dir, database: await testDatabaseFor(dir), scans: 300, seed: 1, now: NOW });
    expect(result.createdToken).toBe(false);
    expect(readFileSync(tokenFile(dir), 'utf8')).toBe(token);

    const reopened = await openWorkspace(dir, { database: await testDatabaseFor(dir) });
    try {
      expect(reopened.createdToken).toBeNull();
      expect((await findUserByToken(reopened.db, token.trim()))?.id).toBe(owner!.id);
      expect((await listScans(reopened.db, owner!.id, { limit: 1, offset: 0 })).total).toBe(300);
    } finally {
      await reopened.close();
    }

    // Another seed adds a second, independent demo; the same seed again is refused, not duplicated.
    const second = await runDemo({ dataDir: dir, database: await testDatabaseFor(dir), scans: 100, seed: 2, now: NOW });
    expect(second.scans).toBe(100);
    // Into a store with scans, a transaction per batch, each rolled up by the triggers as it goes.
    const store = await openTestStore(dir);
    try {
      expect(rollupProblems(await storeInvariants(store))).toEqual([]);
    } finally {
      await store.destroy();
    }
    await expect(
      runDemo({ dataDir: dir, database: await testDatabaseFor(dir), scans: 100, seed: 1, now: NOW }),
    ).rejects.toBeInstanceOf(WorkspaceError);
  });
});
