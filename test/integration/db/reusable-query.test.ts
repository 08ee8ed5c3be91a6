/**
 * ReusableQuery on the run's backend: a query compiled once runs with each call's own values
 * (per shape, per dialect), reads still go where reads go, and a call whose values do not match
 * the compiled parameters is refused instead of binding the wrong ones.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../../src/main/db/database';
import { ReusableQuery } from '../../../src/main/db/reusable-query';
import { openWorkspace, type Workspace } from '../../../src/main/workspace/workspace';
import { dropTestDatabase, testDatabaseFor } from '../../helpers/test-database';

const dataDir = mkdtempSync(join(tmpdir(), 'scandesk-reusable-'));
let workspace: Workspace;
let db: Db;

beforeAll(async () => {
  workspace = await openWorkspace(dataDir, { database: await testDatabaseFor(dataDir) });
  db = workspace.db;
});

afterAll(async () => {
  await workspace.close();
  await dropTestDatabase(dataDir);
  rmSync(dataDir, { recursive: true, force: true });
});

const USER = { id: '', name: '', is_workspace_owner: 0, created_at: '' };
const insertUsers = new ReusableQuery((executor, rows: number) =>
  executor.insertInto('users').values(Array.from({ length: rows }, () => USER)),
);
const userById = new ReusableQuery((executor) =>
  executor.selectFrom('users').select(['id', 'name']).where('id', '=', ''),
);

describe('ReusableQuery', () => {
  it('runs each call with its own values, for any number of rows', async () => {
    await insertUsers.execute(db, ['rq-a', 'Ann', 0, '2026-11-25'], 1);
    await insertUsers.execute(db, ['rq-b', "O'Brien", 0, '2026-11-25', 'rq-c', 'Zoë', 1, '2026-11-26'], 2);
    await insertUsers.execute(db, ['rq-d', 'Dee', 0, '2026-11-25'], 1);
    for (const [id, name] of [
      ['rq-a', 'Ann'],
      ['rq-b', "O'Brien"],
      ['rq-c', 'Zoë'],
      ['rq-d', 'Dee'],
    ]) {
      expect((await userById.execute(db, [id!])).rows).toEqual([{ id, name }]);
    }
    expect((await userById.execute(db, ['nobody'])).rows).toEqual([]);
  });

  it('runs inside the caller’s transaction', async () => {
    await db
      .transaction()
      .execute(async (trx) => {
        await insertUsers.execute(trx, ['rq-rolled-back', 'X', 0, '2026-11-25'], 1);
        expect((await userById.execute(trx, ['rq-rolled-back'])).rows).toHaveLength(1);
        throw new Error('roll back');
      })
      .catch(() => undefined);
    expect((await userById.execute(db, ['rq-rolled-back'])).rows).toEqual([]);
  });

  it('reads outside a transaction without waiting for one that is open, as any SELECT does', async () => {
    const trx = await db.startTransaction().execute();
    try {
      await insertUsers.execute(trx, ['rq-pending', 'P', 0, '2026-11-25'], 1);
      // On SQLite a SELECT that took the writer would wait for this transaction: forever, here.
      expect((await userById.execute(db, ['rq-pending'])).rows).toEqual([]);
    } finally {
      await trx.rollback().execute();
    }
  });

  it('refuses values that do not fit the compiled parameters', async () => {
    await expect(insertUsers.execute(db, ['rq-x', 'X', 0], 1)).rejects.toThrow(/takes 4 parameters, not 3/);
    await expect(insertUsers.execute(db, ['rq-x', 'X', 0, '2026-11-25'], 2)).rejects.toThrow(
      /takes 8 parameters, not 4/,
    );
    expect((await userById.execute(db, ['rq-x'])).rows).toEqual([]);
  });
});
