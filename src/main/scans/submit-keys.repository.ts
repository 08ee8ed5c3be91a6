import type { Executor, NewSubmitKey, SubmitKeyRow } from '../db/index';

export async function findSubmitKey(db: Executor, userId: string, key: string): Promise<SubmitKeyRow | undefined> {
  return db
    .selectFrom('submit_keys')
    .selectAll()
    .where('user_id', '=', userId)
    .where('key', '=', key)
    .executeTakeFirst();
}

/**
 * A plain insert, no "on conflict": when another transaction holds the same key uncommitted,
 * PostgreSQL waits for it and then fails as a unique violation, which the group commit runs again
 * (db/write-batcher.ts), and that time the key is found.
 */
export async function insertSubmitKey(db: Executor, row: NewSubmitKey): Promise<void> {
  await db.insertInto('submit_keys').values(row).execute();
}
