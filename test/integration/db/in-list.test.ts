/**
 * inList on the run's backend: a row matches when its column is one of the values, whatever
 * characters a text value holds (PostgreSQL takes them as one array literal), for text and
 * integer columns alike.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../../src/main/db/database';
import { inList } from '../../../src/main/db/in-list';
import { openWorkspace, type Workspace } from '../../../src/main/workspace/workspace';
import { dropTestDatabase, testDatabaseFor } from '../../helpers/test-database';

const dataDir = mkdtempSync(join(tmpdir(), 'scandesk-in-list-'));
let workspace: Workspace;
let db: Db;

const NAMES = ['plain', 'a,b', '{braces}', 'say "hi"', 'back\\slash', 'NULL', "it's", 'é ✓', ''];

beforeAll(async () => {
  workspace = await openWorkspace(dataDir, { database: await testDatabaseFor(dataDir) });
  db = workspace.db;
  await db
    .insertInto('users')
    .values(NAMES.map((name, n) => ({ id: `usr_inlist_${n}`, name, is_workspace_owner: 0, created_at: '2026-11-26' })))
    .execute();
});

afterAll(async () => {
  await workspace.close();
  await dropTestDatabase(dataDir);
  rmSync(dataDir, { recursive: true, force: true });
});

const namesWhere = async (values: readonly string[]) =>
  (
    await db
      .selectFrom('users')
      .select('name')
      .where(inList(db, 'name', values))
      .execute()
  )
    .map((row) => row.name)
    .sort();

describe('inList', () => {
  it('matches text values exactly, whatever characters they hold', async () => {
    expect(await namesWhere(NAMES)).toEqual([...NAMES].sort());
    expect(await namesWhere(['a', 'b', 'a,b', 'NULL'])).toEqual(['NULL', 'a,b']);
    expect(await namesWhere(['nobody'])).toEqual([]);
  });

  it('matches integer values', async () => {
    const count = async (values: readonly number[]) =>
      (
        await db
          .selectFrom('users')
          .select('id')
          .where(inList(db, 'is_workspace_owner', values))
          .execute()
      ).length;
    expect(await count([0])).toBe(NAMES.length);
    expect(await count([0, 1])).toBe(NAMES.length + 1);
    expect(await count([2])).toBe(0);
  });
});
