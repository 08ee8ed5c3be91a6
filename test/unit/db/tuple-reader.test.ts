import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { Db } from '../../../src/main/db/database';
import { openSqliteDatabase, sqliteEngineOf } from '../../../src/main/db/sqlite/sqlite-connection';
import { tupleReader } from '../../../src/main/db/tuple-reader';

let dir: string;
let db: Db;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'scandesk-tuple-reader-'));
  db = openSqliteDatabase(join(dir, 'x.db'));
  await sql`create table items (id integer primary key, name text)`.execute(db);
  await sql`insert into items (name) values ('a'), ('b'), ('c')`.execute(db);
});
afterEach(async () => {
  await db.destroy();
  rmSync(dir, { recursive: true, force: true });
});

it('keeps reading when the read-only handle is reopened between two runs (as after new statistics)', async () => {
  const read = tupleReader<[number, string]>(db, 'select id, name from items where id > ? order by id limit 2');
  expect(await read([0])).toEqual([
    [1, 'a'],
    [2, 'b'],
  ]);
  sqliteEngineOf(db)!.driver.closeReader();
  expect(await read([2])).toEqual([[3, 'c']]);
});
