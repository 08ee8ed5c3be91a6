import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import SQLite from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { openSqlite, wrapSqlite } from '../../../../src/main/db/sqlite/sqlite-connection';
import type { Db } from '../../../../src/main/db/database';
import { migrateToLatest } from '../../../../src/main/db/migrate';

describe('the statement cache under Kysely', () => {
  let dir: string;
  let db: Db;
  let prepared: string[];

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'scandesk-statements-'));
    prepared = [];
    // Every handle's prepares, the writer's and the read-only one's the driver opens itself.
    const prepare = SQLite.prototype.prepare;
    vi.spyOn(SQLite.prototype, 'prepare').mockImplementation(function (this: SQLite.Database, text: string) {
      prepared.push(text);
      return prepare.call(this, text);
    });
    db = wrapSqlite(openSqlite(join(dir, 'x.db')));
    await migrateToLatest(db);
  });
  afterEach(async () => {
    vi.restoreAllMocks();
    await db.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  const count = (text: string): number => prepared.filter((p) => p === text).length;

  it('prepares a statement once however often it runs', async () => {
    const query = db.selectFrom('users').select('id').where('name', '=', 'x');
    for (let i = 0; i < 5; i++) expect(await query.execute()).toEqual([]);
    expect(count(query.compile().sql)).toBe(1);
  });

  it('keeps the most recently used statements and prepares evicted ones again', async () => {
    const first = sql`select 0 as n`;
    await first.execute(db);
    for (let n = 1; n <= 300; n++) await sql`select ${sql.lit(n)} as n`.execute(db);
    const { rows } = await first.execute(db);
    expect(rows).toEqual([{ n: 0 }]);
    expect(count('select 0 as n')).toBe(2);
    await sql`select 300 as n`.execute(db);
    expect(count('select 300 as n')).toBe(1);
  });

  it('prepares a pragma each time it runs, since its setting is applied when it is prepared', async () => {
    const tempStore = async (): Promise<number> =>
      (await sql<{ temp_store: number }>`pragma temp_store`.execute(db)).rows[0]!.temp_store;
    for (const [setting, value] of [
      ['memory', 2],
      ['default', 0],
      ['memory', 2],
      ['default', 0],
    ] as const) {
      await sql`pragma temp_store = ${sql.raw(setting)}`.execute(db);
      expect(await tempStore()).toBe(value);
    }
    expect(count('pragma temp_store = memory')).toBe(2);
  });

  it('runs a cached statement again after a stream over it stopped early', async () => {
    await db
      .insertInto('users')
      .values(
        ['a', 'b', 'c'].map((id) => ({ id, name: id, is_workspace_owner: 0, created_at: '2026-11-21T00:00:00.000Z' })),
      )
      .execute();
    const query = db.selectFrom('users').select('id').orderBy('id');
    for await (const row of query.stream()) {
      expect(row.id).toBe('a');
      break;
    }
    expect((await query.execute()).map((row) => row.id)).toEqual(['a', 'b', 'c']);
  });
});
