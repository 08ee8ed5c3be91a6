/**
 * Migration 2026_11_29_090000_rename_remote_named_local: a remote a store named `local` before the
 * name was reserved takes a free `local-remote…` name; every other remote keeps its own.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Db } from '../../../src/main/db/database';
import { migrateToLatest } from '../../../src/main/db/migrate';
import { migrations } from '../../../src/main/db/migrations/index';
import { insertRemote } from '../../helpers/sync-fixtures';
import { openStoreBefore } from '../../helpers/store-before';
import { dropTestDatabase } from '../../helpers/test-database';

const MIGRATION = '2026_11_29_090000_rename_remote_named_local';
const USER = 'usr_01JREMOTENAMEDLOCAL000000';

describe('a remote named local', () => {
  let dataDir: string;
  let db: Db | undefined;
  afterEach(async () => {
    await db?.destroy();
    await dropTestDatabase(dataDir);
    rmSync(dataDir, { recursive: true, force: true });
  });

  async function storeBefore(): Promise<Db> {
    dataDir = mkdtempSync(join(tmpdir(), 'scandesk-remote-local-'));
    db = await openStoreBefore(dataDir, MIGRATION);
    await db
      .insertInto('users')
      .values({ id: USER, name: 'local', is_workspace_owner: 1, created_at: '2026-11-01T00:00:00.000Z' })
      .execute();
    return db;
  }

  const names = async (db: Db) =>
    (await db.selectFrom('remotes').select(['id', 'name']).orderBy('id').execute()).map(({ id, name }) => [id, name]);

  it('takes the first free local-remote name; the others keep theirs', async () => {
    const db = await storeBefore();
    const local = await insertRemote(db, { user_id: USER, name: 'local' });
    const taken = await insertRemote(db, { user_id: USER, name: 'local-remote' });
    const team = await insertRemote(db, { user_id: USER, name: 'team' });
    await migrateToLatest(db, migrations);
    expect(await names(db)).toEqual([
      [local.id, 'local-remote-2'],
      [taken.id, 'local-remote'],
      [team.id, 'team'],
    ]);
  });

  it('leaves a store without one as it was', async () => {
    const db = await storeBefore();
    const team = await insertRemote(db, { user_id: USER, name: 'team' });
    await migrateToLatest(db, migrations);
    expect(await names(db)).toEqual([[team.id, 'team']]);
  });
});
