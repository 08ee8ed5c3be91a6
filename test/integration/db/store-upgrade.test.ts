import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import type { ScanList } from '../../../src/shared/api/scans';
import type { DatabaseLocation } from '../../../src/main/db/database-location';
import { openDatabase } from '../../../src/main/db/open-database';
import { migrateToLatest } from '../../../src/main/db/migrate';
import { migrations } from '../../../src/main/db/migrations/index';
import { databaseFile } from '../../../src/main/workspace/data-dir';
import { buildApp } from '../../../src/main/server/app';
import { createUser } from '../../../src/main/users/users.service';
import { generateToken, hashToken } from '../../../src/main/users/token';
import { openWorkspace, type Workspace } from '../../../src/main/workspace/workspace';
import { fixtureScanId, insertScans } from '../../helpers/scan-fixtures';
import { dropTestDatabase, newTestDatabase, onPostgres, testDatabaseFor } from '../../helpers/test-database';
import { entriesWithScan } from '../../helpers/timeline-rows';

/** The last migration before the scans list got covering indexes and the scan_counts rollup. */
const BEFORE = '2026_11_21_070000_add_scans_tokens_index';
const SCANS = 300;

describe('opening a store made by an older version', () => {
  let dataDir: string;
  let workspace: Workspace | undefined;
  afterEach(async () => {
    await workspace?.close();
    await dropTestDatabase(dataDir);
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('announces the upgrade, fills the rollup, keys timelines by integer and gives new indexes statistics', async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'scandesk-upgrade-'));
    const names = Object.keys(migrations);
    const older = Object.fromEntries(Object.entries(migrations).slice(0, names.indexOf(BEFORE) + 1));
    // An empty store of the run's dialect, brought only as far as the older version went.
    const location: DatabaseLocation = onPostgres
      ? { kind: 'postgres', url: await newTestDatabase(dataDir, { migrated: false }) }
      : { kind: 'sqlite', file: databaseFile(dataDir) };
    const old = openDatabase(location);
    await migrateToLatest(old, older);
    // The owner and token rows as that version wrote them: today's createUser writes columns added since.
    const owner = { user: { id: 'usr_01JUPGRADEOWNER0000000000' }, token: generateToken() };
    const createdAt = '2026-11-01T00:00:00.000Z';
    await old
      .insertInto('users')
      .values({ id: owner.user.id, name: 'local', is_workspace_owner: 1, created_at: createdAt })
      .execute();
    await old
      .insertInto('tokens')
      .values({ id: 'tok_upgrade', user_id: owner.user.id, token_hash: hashToken(owner.token), created_at: createdAt })
      .execute();
    await insertScans(
      old,
      Array.from({ length: SCANS }, (_, n) => ({
        id: fixtureScanId(n + 1),
        created_at: Date.UTC(2026, 10, 1) + n * 60_000,
        submitted_by: owner.user.id,
        tool: n % 3 === 0 ? 'cursor' : 'claude-code',
        violation_count: n % 5 === 0 ? 1 : 0,
      })),
      { timelines: false },
    );
    // The timelines as that version stored them: keyed by the scan's id.
    await sql`
      INSERT INTO timeline_entries (scan_id, seq, timestamp, action, tokens)
      SELECT id, 0, created_at, action, tokens FROM scans`.execute(old);
    await sql`ANALYZE`.execute(old);
    await old.destroy();

    const heard: string[][] = [];
    workspace = await openWorkspace(dataDir, { database: location, onUpgrade: (pending) => heard.push(pending) });
    expect(heard).toEqual([names.slice(names.indexOf(BEFORE) + 1)]);

    const listIndexes = ['scans_list', 'scans_list_tool', 'scans_list_submitted_by', 'scans_list_organization_id'];
    if (onPostgres) {
      // ANALYZE after the upgrade: the table's statistics count every scan.
      const stats = await sql<{ n: number }>`SELECT count(*) AS n FROM pg_stats WHERE tablename = 'scans'`.execute(
        workspace.db,
      );
      expect(Number(stats.rows[0]!.n)).toBeGreaterThan(0);
      const indexes = await sql<{ relname: string }>`SELECT relname FROM pg_class WHERE relkind = 'i'`.execute(
        workspace.db,
      );
      expect(indexes.rows.map((row) => row.relname)).toEqual(expect.arrayContaining(listIndexes));
    } else {
      const analyzed = await sql<{ idx: string }>`SELECT idx FROM sqlite_stat1 WHERE tbl = 'scans'`.execute(
        workspace.db,
      );
      expect(analyzed.rows.map((row) => row.idx)).toEqual(expect.arrayContaining(listIndexes));
    }

    const app = await buildApp({ db: workspace.db, version: 'test' });
    try {
      const total = async (query: string): Promise<number> => {
        const response = await app.inject({
          method: 'GET',
          url: `/v1/scans?limit=1${query}`,
          headers: { authorization: `Bearer ${owner.token}` },
        });
        expect(response.statusCode, response.body).toBe(200);
        return (response.json() as ScanList).total;
      };
      expect(await total('')).toBe(SCANS);
      expect(await total('&tool=cursor')).toBe(SCANS / 3);
      expect(await total('&has_violations=true')).toBe(SCANS / 5);
      // Each timeline moved to its scan's integer key, and still goes with the scan.
      const first = fixtureScanId(1);
      const evidence = await app.inject({
        method: 'GET',
        url: `/v1/scans/${first}/evidence`,
        headers: { authorization: `Bearer ${owner.token}` },
      });
      expect(evidence.json()).toMatchObject({
        evidence: { request_count: 1, timeline: [{ timestamp: '2026-11-01T00:00:00.000Z', action: 'edit' }] },
      });
      const entries = await entriesWithScan(workspace.db).execute();
      expect(entries.map((entry) => entry.scan_id).sort()).toEqual(
        Array.from({ length: SCANS }, (_, n) => fixtureScanId(n + 1)),
      );
      await workspace.db.deleteFrom('scans').where('id', '=', first).execute();
      expect(await entriesWithScan(workspace.db).where('scan_id', '=', first).execute()).toEqual([]);
      expect(await workspace.db.selectFrom('timelines').select('id').where('scan_id', '=', first).execute()).toEqual(
        [],
      );
    } finally {
      await app.close();
    }
  });

  it('keys timelines by scan id again when create_timelines is undone, and by integer when redone', async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'scandesk-upgrade-'));
    workspace = await openWorkspace(dataDir, { database: await testDatabaseFor(dataDir) });
    const { db } = workspace;
    const owner = await createUser(db, 'local', { workspaceOwner: true });
    const ids = [fixtureScanId(1), fixtureScanId(2)];
    await insertScans(
      db,
      ids.map((id, n) => ({ id, created_at: Date.UTC(2026, 10, 1) + n, submitted_by: owner.user.id })),
    );
    const before = await entriesWithScan(db).orderBy('scan_id').execute();
    const migration = migrations['2026_11_25_120000_create_timelines']!;
    await db.transaction().execute(async (trx) => {
      await migration.down!(trx);
      const { rows } = await sql<{ scan_id: string }>`SELECT scan_id FROM timeline_entries ORDER BY scan_id`.execute(
        trx,
      );
      expect(rows.map((row) => row.scan_id)).toEqual(ids);
      await migration.up(trx);
    });
    expect(await entriesWithScan(db).orderBy('scan_id').execute()).toEqual(before);
  });
});
