import type { Executor } from '../db/database';
import type { UserRow } from '../db/tables/user.table';
import { judgeSession, sessionTimes, type SessionLifetime } from './session-policy';
import { generateToken, hashToken } from './token';

export interface NewSessionOptions {
  lifetime: SessionLifetime;
  /** The port of the server that makes it: the session is good there only. */
  port: number | null;
  at?: Date;
}

/** Starts a browser session for a user; returns the id for the cookie (stored only hashed). */
export async function createSession(db: Executor, userId: string, options: NewSessionOptions): Promise<string> {
  const at = options.at ?? new Date();
  const id = generateToken().replace(/^sdt_/, 'sds_');
  await db
    .insertInto('sessions')
    .values({
      id_hash: hashToken(id),
      user_id: userId,
      created_at: at.toISOString(),
      ...sessionTimes(options.lifetime, at, options.port),
    })
    .execute();
  return id;
}

/**
 * The user of a live session on this server, or undefined. A session found dead is deleted, so a
 * stolen cookie stops working for good once it has expired even if the clock is later set back.
 */
export async function findUserBySession(
  db: Executor,
  sessionId: string,
  port: number | null,
  at = new Date(),
): Promise<UserRow | undefined> {
  const idHash = hashToken(sessionId);
  const row = await db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .select([
      'users.id',
      'users.name',
      'users.is_workspace_owner',
      'users.created_at',
      'sessions.port',
      'sessions.last_used_at',
      'sessions.idle_ms',
      'sessions.expires_at',
    ])
    .where('sessions.id_hash', '=', idHash)
    .executeTakeFirst();
  if (!row) return undefined;
  const verdict = judgeSession(row, at, port);
  if (!verdict.live) {
    // Another server's session is left alone: it is still good where it belongs.
    if (verdict.reason !== 'other_server') await deleteSessionByHash(db, idHash);
    return undefined;
  }
  if (verdict.touch) {
    await db.updateTable('sessions').set({ last_used_at: at.toISOString() }).where('id_hash', '=', idHash).execute();
  }
  return { id: row.id, name: row.name, is_workspace_owner: row.is_workspace_owner, created_at: row.created_at };
}

const deleteSessionByHash = async (db: Executor, idHash: string): Promise<void> => {
  await db.deleteFrom('sessions').where('id_hash', '=', idHash).execute();
};

export async function deleteSession(db: Executor, sessionId: string): Promise<void> {
  await deleteSessionByHash(db, hashToken(sessionId));
}

/** Every browser and desktop session of a user: a rotated token must not leave one signed in. */
export async function deleteSessionsOfUser(db: Executor, userId: string): Promise<void> {
  await db.deleteFrom('sessions').where('user_id', '=', userId).execute();
}
