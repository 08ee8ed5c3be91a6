/**
 * `npx tsx bench/small-scans.ts [--root DIR] [--database sqlite|postgres] [--scans 1000] [--rounds 3]`:
 * ms to store a package of many small scans (10-entry timelines, a team server's own export):
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
import type * as TestApps from '../test/helpers/test-app';

const { values } = parseArgs({
  options: {
    root: { type: 'string', default: resolve(import.meta.dirname, '..') },
    database: { type: 'string', default: 'sqlite' },
    scans: { type: 'string', default: '1000' },
    entries: { type: 'string', default: '10' },
    rounds: { type: 'string', default: '3' },
  },
});
const root = resolve(values.root);
const load = async <T>(path: string): Promise<T> => (await import(pathToFileURL(join(root, path)).href)) as T;

async function main(): Promise<void> {
  let stop = (): void => undefined;
  if (values.database === 'postgres') {
    if (!process.env.SCANDESK_TEST_DATABASE_URL) {
      const { startCluster } = await load<typeof Clusters>('test/fixtures/postgres-cluster.ts');
      const cluster = await startCluster();
      stop = () => cluster.stop();
      process.env.SCANDESK_TEST_DATABASE_URL = cluster.adminUrl;
    }
    process.env.SCANDESK_TEST_BACKEND = 'postgres';
  }
  const { createTestContext } = await load<typeof TestApps>('test/helpers/test-app.ts');
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
    const exported = await remote.request({ method: 'POST', url: '/v1/evidence/exports', payload: { scan_ids: ids } });
    if (exported.statusCode !== 200) throw new Error(`export: ${exported.statusCode} ${exported.body}`);
    const archive = join(dir, 'package.zip');
    writeFileSync(archive, exported.rawPayload);
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
          `${JSON.stringify({ root, database: values.database, scans: count, pulled: Math.round(pulled), again: Math.round(again), imported: Math.round(imported) })}\n`,
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
