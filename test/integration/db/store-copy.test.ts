/**
 * `copyStore`: a demo store copied into an empty one answers every list, stats and evidence
 * request exactly as the original. On the PostgreSQL run the copy goes PostgreSQL → SQLite →
 * PostgreSQL, so both directions are proven; on SQLite it is SQLite → SQLite.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseLocation } from '../../../src/main/db/database-location';
import { migrateToLatest } from '../../../src/main/db/migrate';
import { openDatabase } from '../../../src/main/db/open-database';
import { sqliteUnder } from '../../../src/main/db/sqlite/sqlite-connection';
import { copyStore, countRows, StoreCopyError } from '../../../src/main/db/store-copy';
import { runDemo } from '../../../src/main/demo/demo.service';
import type { App } from '../../../src/main/http/route-types';
import { buildApp } from '../../../src/main/server/app';
import { databaseFile, tokenFile } from '../../../src/main/workspace/data-dir';
import { openWorkspace, type Workspace } from '../../../src/main/workspace/workspace';
import { dropTestDatabase, onPostgres, testDatabaseFor } from '../../helpers/test-database';

const NOW = Date.UTC(2026, 10, 20);
const dirs = Array.from({ length: 3 }, () => mkdtempSync(join(tmpdir(), 'scandesk-copy-')));
const sqliteOf = (dir: string): DatabaseLocation => ({ kind: 'sqlite', file: databaseFile(dir) });

let token: string;
const stores: { workspace: Workspace; app: App }[] = [];

async function copy(from: DatabaseLocation, to: DatabaseLocation): Promise<void> {
  const source = openDatabase(from);
  const target = openDatabase(to);
  try {
    await migrateToLatest(target);
    const progress: number[] = [];
    const summary = await copyStore(source, target, (rows) => progress.push(rows));
    expect(summary).toEqual(await countRows(source));
    expect(progress.reduce((sum, n) => sum + n, 0)).toBe(summary.total);
    // A SQLite target is written through a rollback journal, and left in WAL mode as every store is.
    if (to.kind === 'sqlite') expect(sqliteUnder(target).pragma('journal_mode', { simple: true })).toBe('wal');
  } finally {
    await source.destroy();
    await target.destroy();
  }
}

beforeAll(async () => {
  const [a, b, c] = dirs as [string, string, string];
  const original = (await testDatabaseFor(a)) ?? sqliteOf(a);
  await runDemo({ dataDir: a, database: await testDatabaseFor(a), scans: 400, seed: 3, now: NOW });
  token = readFileSync(tokenFile(a), 'utf8').trim();
  await copy(original, sqliteOf(b));
  const back = (await testDatabaseFor(c)) ?? sqliteOf(c);
  await copy(sqliteOf(b), back);
  for (const [dir, location] of [
    [a, original],
    [b, sqliteOf(b)],
    [c, back],
  ] as const) {
    const workspace = await openWorkspace(dir, { database: location });
    expect(workspace.createdToken).toBeNull();
    const app = await buildApp({ db: workspace.db, version: 'test', dataDir: dir });
    stores.push({ workspace, app });
  }
}, 60_000);

afterAll(async () => {
  for (const { workspace, app } of stores) {
    await app.close();
    await workspace.close();
  }
  for (const dir of dirs) {
    await dropTestDatabase(dir);
    rmSync(dir, { recursive: true, force: true });
  }
});

async function answers(url: string): Promise<string[]> {
  return Promise.all(
    stores.map(async ({ app }) => {
      const response = await app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });
      expect(response.statusCode, `${url}: ${response.body}`).toBe(200);
      return response.body;
    }),
  );
}

describe(`store copy (${onPostgres ? 'PostgreSQL → SQLite → PostgreSQL' : 'SQLite → SQLite'})`, () => {
  it('answers every list, stats and evidence request as the original', async () => {
    const [list] = await answers('/v1/scans?limit=100');
    const scans = (JSON.parse(list!) as { scans: { id: string; tool: string }[] }).scans;
    const organizations = (JSON.parse((await answers('/v1/organizations'))[0]!) as { organizations: { id: string }[] })
      .organizations;
    const urls = [
      '/v1/scans?limit=100',
      '/v1/scans?limit=50&offset=120&sort=tokens',
      `/v1/scans?limit=20&tool=${encodeURIComponent(scans[0]!.tool)}&since=2026-11-01`,
      '/v1/scans?limit=20&has_violations=true',
      '/v1/stats/tokens',
      '/v1/stats/violations',
      '/v1/users',
      '/v1/organizations',
      ...organizations.flatMap((organization) => [
        `/v1/organizations/${organization.id}/members`,
        `/v1/organizations/${organization.id}/teams`,
        `/v1/organizations/${organization.id}/policy`,
        `/v1/scans?limit=30&organization_id=${organization.id}`,
      ]),
      ...scans
        .slice(0, 5)
        .flatMap((scan) => [
          `/v1/scans/${scan.id}`,
          `/v1/scans/${scan.id}/evidence`,
          `/v1/scans/${scan.id}/evidence/timeline/buckets?n=20`,
        ]),
    ];
    for (const url of urls) {
      const [original, ...copies] = await answers(url);
      for (const copied of copies) expect(copied, url).toBe(original);
    }
  });

  it('gives new timelines ids after the copied ones (PostgreSQL: the identity resumes past them)', async () => {
    for (const { app } of stores) {
      const submitted = await app.inject({
        method: 'POST',
        url: '/v1/scans',
        headers: { authorization: `Bearer ${token}` },
        payload: {
          tool: 'copy-check',
          action: 'edit',
          tokens: 3,
          timeline: [{ timestamp: '2026-11-20T00:00:00.000Z', action: 'edit', tokens: 3 }],
        },
      });
      expect(submitted.statusCode, submitted.body).toBe(201);
      const { id } = submitted.json<{ id: string }>();
      const evidence = await app.inject({
        method: 'GET',
        url: `/v1/scans/${id}/evidence`,
        headers: { authorization: `Bearer ${token}` },
      });
      expect(evidence.json()).toMatchObject({ evidence: { request_count: 1, total_tokens: 3 } });
    }
  });

  it("keeps the scans' change seqs and resumes the counter past them, under a sequence id of its own", async () => {
    const seqs = (db: Workspace['db']) =>
      db
        .selectFrom('scans')
        .select(['id', 'change_seq'])
        .where('tool', 'not in', ['seq-check', 'copy-check'])
        .orderBy('id')
        .execute();
    const [original, ...copies] = await Promise.all(stores.map(({ workspace }) => seqs(workspace.db)));
    for (const copied of copies) expect(copied).toEqual(original);
    for (const { app, workspace } of stores) {
      const submitted = await app.inject({
        method: 'POST',
        url: '/v1/scans',
        headers: { authorization: `Bearer ${token}` },
        payload: { tool: 'seq-check', action: 'edit', tokens: 1 },
      });
      expect(submitted.statusCode, submitted.body).toBe(201);
      const stored = await workspace.db
        .selectFrom('scans')
        .select('change_seq')
        .where('id', '=', submitted.json<{ id: string }>().id)
        .executeTakeFirstOrThrow();
      expect(Number(stored.change_seq)).toBeGreaterThan(Math.max(...original!.map((row) => Number(row.change_seq))));
    }
    // The SQLite copy was migrated on its own (PostgreSQL test stores are clones of one template).
    const sequenceOf = (db: Workspace['db']) => db.selectFrom('change_sequence').select('id').executeTakeFirstOrThrow();
    expect(await sequenceOf(stores[1]!.workspace.db)).not.toEqual(await sequenceOf(stores[0]!.workspace.db));
  });

  it('refuses a target that is not empty, and leaves it as it was', async () => {
    const target = stores[1]!.workspace.db;
    const before = await countRows(target);
    await expect(copyStore(stores[0]!.workspace.db, target)).rejects.toBeInstanceOf(StoreCopyError);
    expect(await countRows(target)).toEqual(before);
  });
});
