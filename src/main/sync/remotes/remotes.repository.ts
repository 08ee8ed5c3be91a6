import type { Executor, NewRemote, RemoteRow, RemoteUpdate } from '../../db/index';

// The remotes table; the sync engine's lease and cursor columns are written by the engine.

export async function insertRemote(db: Executor, remote: NewRemote): Promise<void> {
  await db.insertInto('remotes').values(remote).execute();
}

export async function listRemotes(db: Executor): Promise<RemoteRow[]> {
  return db.selectFrom('remotes').selectAll().orderBy('name').execute();
}

export async function findRemoteByName(db: Executor, name: string): Promise<RemoteRow | undefined> {
  return db.selectFrom('remotes').selectAll().where('name', '=', name).executeTakeFirst();
}

export async function findRemoteById(db: Executor, id: string): Promise<RemoteRow | undefined> {
  return db.selectFrom('remotes').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function updateRemote(db: Executor, id: string, changes: RemoteUpdate): Promise<void> {
  if (Object.keys(changes).length === 0) return;
  await db.updateTable('remotes').set(changes).where('id', '=', id).execute();
}

/** Pulled scans, mirrored organizations and teams stay, as local data (their references are set null). */
export async function deleteRemote(db: Executor, id: string): Promise<void> {
  await db.deleteFrom('remotes').where('id', '=', id).execute();
}
