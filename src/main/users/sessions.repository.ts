import type { Executor } from '../db/database';
import type { UserRow } from '../db/tables/user.table';
import { now } from '../ids';
import { generateToken, hashToken } from './token';

/** Starts a browser session for a user; returns the id for the cookie (stored only hashed). */
export async function createSession(db: Executor, userId: string): Promise<string> {
  const id = generateToken().replace(/^sdt_/, 'sds_');
  await db
    .insertInto('sessions')
    .values({ id_hash: hashToken(id), user_id: userId, created_at: now() })
    .execute();
  return id;
}

export async function findUserBySession(db: Executor, sessionId: string): Promise<UserRow | undefined> {
  return db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .select(['users.id', 'users.name', 'users.is_workspace_owner', 'users.created_at'])
    .where('sessions.id_hash', '=', hashToken(sessionId))
    .executeTakeFirst();
}

export async function deleteSession(db: Executor, sessionId: string): Promise<void> {
  await db.deleteFrom('sessions').where('id_hash', '=', hashToken(sessionId)).execute();
}
