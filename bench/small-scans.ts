/**
 * `npx tsx bench/small-scans.ts [--root DIR] [--database sqlite|postgres] [--scans 1000] [--rounds 3] [--exports 1]`:
 * ms to store a package of many small scans (10-entry timelines, a team server's own export, whose
 * ms are printed too):
 * pulled into a fresh store (new), the same package pulled again (unchanged), and the ordinary
 * import of it into another fresh store. `--root` is the checkout whose code is measured (a
 * baseline worktree of main, say), so that one script compares two: run them in turns, the
 * machine is noisy. PostgreSQL: SCANDESK_TEST_DATABASE_URL (an admin URL) or a private cluster.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import type * as Limits from '../src/main/evidence/import/import-limits';
import type * as Imports from '../src/main/evidence/import/package-import.service';
import type * as Pulls from '../src/main/evidence/import/pulled-import.service';
import type * as Clusters from '../test/fixtures/postgres-cluster';
import type * as Apps from '../src/main/server/app';
import type * as Workspaces from '../src/main/workspace/workspace';
import type * as Owners from '../src/main/users/users.repository';

const { values } = parseArgs({
  options: {
    root: { type: 'string', default: resolve(import.meta.dirname, '..') },
    database: { type: 'string', default: 'sqlite' },
    scans: { type: 'string', default: '1000' },
    entries: { type: 'string', default: '10' },
    rounds: { type: 'string', default: '3' },
    exports: { type: 'string', default: '1' },
  },
});
const root = resolve(values.root);
const load = async <T>(path: string): Promise<T> => (await import(pathToFileURL(join(root, path)).href)) as T;

async function main(): Promise<void> {
  let stop = (): void => undefined;
  let adminUrl: string | undefined;
  if (values.database === 'postgres') {
    adminUrl = process.env.SCANDESK_TEST_DATABASE_URL;
    if (!adminUrl) {
      const cluster = await (await load<typeof Clusters>('test/fixtures/postgres-cluster.ts')).startCluster();
      stop = () => cluster.stop();
      adminUrl = cluster.adminUrl;
    }
  }
  const { createDatabase, dropDatabase } = await load<typeof Clusters>('test/fixtures/postgres-cluster.ts');
  const { openWorkspace } = await load<typeof Workspaces>('src/main/workspace/workspace.ts');
  const { buildApp } = await load<typeof Apps>('src/main/server/app.ts');
  const { findWorkspaceOwner } = await load<typeof Owners>('src/main/users/users.repository.ts');
  let stores = 0;
  /** A fresh store (and an in-process app on it): a SQLite file, or a database of its own. */
  const createTestContext = async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'scandesk-small-scans-store-'));
    const name = `small_scans_${process.pid}_${(stores += 1)}`;
    const url = adminUrl ? await createDatabase(adminUrl, name) : undefined;
    const workspace = await openWorkspace(dataDir, url ? { database: { kind: 'postgres', url } } : {});
    const app = await buildApp({ db: workspace.db, version: 'bench', dataDir });
    await app.ready();
    const owner = (await findWorkspaceOwner(workspace.db))!;
    const token = workspace.createdToken!;
    return {
      db: workspace.db,
      owner,
      request: (options: { method: 'POST'; url: string; payload: object }) =>
        app.inject({ ...options, headers: { authorization: `Bearer ${token}` } }),
      async close() {
        await app.close();
        await workspace.close();
        if (adminUrl) await dropDatabase(adminUrl, name);
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  };
  const { importPulledPackage } = await load<typeof Pulls>('src/main/evidence/import/pulled-import.service.ts');
  const { importEvidencePackage } = await load<typeof Imports>('src/main/evidence/import/package-import.service.ts');
  const { DEFAULT_IMPORT_LIMITS } = await load<typeof Limits>('src/main/evidence/import/import-limits.ts');
  const dir = mkdtempSync(join(tmpdir(), 'scandesk-small-scans-'));
  const remote = await createTestContext();
  try {
    const count = Number(values.scans);
    const entries = Number(values.entries);
    const ids: string[] = [];
    for (let i = 0; i < count; i++) {
      const start = Date.UTC(2026, 10, 1) + i * 60_000;
      const timeline = Array.from({ length: entries }, (_, j) => ({
        timestamp: new Date(start + j * 1000).toISOString(),
        action: j % 2 === 0 ? 'read' : 'edit',
        tokens: 10 + j,
      }));
      const tokens = timeline.reduce((sum, entry) => sum + entry.tokens, 0);
      const response = await remote.request({
        method: 'POST',
        url: '/v1/scans',
        payload: { tool: 'cursor', action: 'edit', tokens, timeline },
      });
      if (response.statusCode !== 201) throw new Error(`submit: ${response.statusCode} ${response.body}`);
      ids.push((response.json() as { id: string }).id);
    }
    // The export is timed as often as asked (the first is printed with each round's line too).
    const exportTimes: number[] = [];
    let exported: Awaited<ReturnType<typeof remote.request>> | undefined;
    for (let i = 0; i < Math.max(1, Number(values.exports)); i++) {
      const exportStarted = performance.now();
      exported = await remote.request({ method: 'POST', url: '/v1/evidence/exports', payload: { scan_ids: ids } });
      exportTimes.push(Math.round(performance.now() - exportStarted));
      if (exported.statusCode !== 200) throw new Error(`export: ${exported.statusCode} ${exported.body}`);
    }
    const exportMs = exportTimes[0]!;
    process.stdout.write(
      `${JSON.stringify({ root, database: values.database, scans: count, exports: exportTimes })}\n`,
    );
    const archive = join(dir, 'package.zip');
    writeFileSync(archive, exported!.rawPayload);
    for (let round = 0; round < Number(values.rounds); round++) {
      const local = await createTestContext();
      const other = await createTestContext();
      try {
        const now = Date.now();
        await local.db
          .insertInto('remotes')
          .values({
            id: 'r1',
            name: 'team',
            url: 'https://team.example',
            user_id: local.owner.id,
            push_since: now,
            created_at: now,
          })
          .execute();
        const placement = { remoteId: 'r1', userId: local.owner.id, organizations: new Map<string, string>() };
        const time = async (work: () => Promise<unknown>): Promise<number> => {
          const started = performance.now();
          await work();
          return performance.now() - started;
        };
        const pulled = await time(() => importPulledPackage(local.db, archive, DEFAULT_IMPORT_LIMITS, placement));
        const again = await time(() => importPulledPackage(local.db, archive, DEFAULT_IMPORT_LIMITS, placement));
        const imported = await time(() =>
          importEvidencePackage(other.db, other.owner.id, archive, DEFAULT_IMPORT_LIMITS),
        );
        const scans = await local.db
          .selectFrom('scans')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirst();
        if (Number(scans?.n) !== count) throw new Error(`stored ${scans?.n} scans, not ${count}`);
        process.stdout.write(
          `${JSON.stringify({
            root,
            database: values.database,
            scans: count,
            export: exportMs,
            pulled: Math.round(pulled),
            again: Math.round(again),
            imported: Math.round(imported),
          })}\n`,
        );
      } finally {
        await local.close();
        await other.close();
      }
    }
  } finally {
    await remote.close();
    rmSync(dir, { recursive: true, force: true });
    stop();
  }
}

await main();
