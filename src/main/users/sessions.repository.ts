import type { Executor, UserRow } from '../db/index';
import {
  judgeSession,
  MAX_SESSIONS_PER_USER,
  PURGE_BATCH,
  sessionEndsAt,
  sessionTimes,
  type SessionLifetime,
} from './session-policy';
import { generateToken, hashToken } from './token';

export interface NewSessionOptions {
  lifetime: SessionLifetime;
  /** The port of the server that makes it: the session is good there only. */
  port: number | null;
  /** The token that signed in (revoking it ends the session); absent for the desktop window's own. */
  tokenId?: string | undefined;
  at?: Date;
}

/**
 * Starts a browser session for a user; returns the id for the cookie (stored only hashed). Each
 * sign-in also clears away sessions that have ended and the user's least recently used ones past
 * MAX_SESSIONS_PER_USER, so the table holds what is live, not every sign-in there ever was.
 */
export async function createSession(db: Executor, userId: string, options: NewSessionOptions): Promise<string> {
  const at = options.at ?? new Date();
  const id = generateToken().replace(/^sdt_/, 'sds_');
  const times = sessionTimes(options.lifetime, at, options.port);
  await db
    .insertInto('sessions')
    .values({
      id_hash: hashToken(id),
      user_id: userId,
      token_id: options.tokenId ?? null,
      created_at: at.toISOString(),
      ...times,
      ends_at: sessionEndsAt(times),
    })
    .execute();
  await purgeEndedSessions(db, at);
  if (options.tokenId !== undefined) await endSessionsPastLimit(db, userId);
  return id;
}

/** Deletes up to `limit` sessions that ended by `at`; returns how many. */
export async function purgeEndedSessions(db: Executor, at = new Date(), limit = PURGE_BATCH): Promise<number> {
  const ended = await db
    .selectFrom('sessions')
    .select('id_hash')
    .where('ends_at', '<=', at.toISOString())
    .limit(limit)
    .execute();
  await deleteSessionRows(db, ended);
  return ended.length;
}

/** Ends a user's least recently used browser sessions beyond MAX_SESSIONS_PER_USER. */
async function endSessionsPastLimit(db: Executor, userId: string): Promise<void> {
  const surplus = await db
    .selectFrom('sessions')
    .select('id_hash')
    .where('user_id', '=', userId)
    .where('token_id', 'is not', null)
    .orderBy('last_used_at', 'desc')
    .orderBy('created_at', 'desc')
    .orderBy('id_hash')
    .limit(PURGE_BATCH)
    .offset(MAX_SESSIONS_PER_USER)
    .execute();
  await deleteSessionRows(db, surplus);
}

/** Deletes the sessions selected by a purge: at most PURGE_BATCH, so one statement. */
async function deleteSessionRows(db: Executor, rows: readonly { id_hash: string }[]): Promise<void> {
  if (rows.length === 0) return;
  await db
    .deleteFrom('sessions')
    .where(
      'id_hash',
      'in',
      rows.map((row) => row.id_hash),
    )
    .execute();
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
    const lastUsedAt = at.toISOString();
    await db
      .updateTable('sessions')
      .set({ last_used_at: lastUsedAt, ends_at: sessionEndsAt({ ...row, last_used_at: lastUsedAt }) })
      .where('id_hash', '=', idHash)
      .execute();
  }
  return { id: row.id, name: row.name, is_workspace_owner: row.is_workspace_owner, created_at: row.created_at };
}

const deleteSessionByHash = async (db: Executor, idHash: string): Promise<void> => {
  await db.deleteFrom('sessions').where('id_hash', '=', idHash).execute();
};

export async function deleteSession(db: Executor, sessionId: string): Promise<void> {
  await deleteSessionByHash(db, hashToken(sessionId));
}

/**
 * Every browser and desktop session of a user: a rotated token must not leave one signed in.
 * Returns the hashes of the ended sessions, whose open event streams end with them.
 */
export async function deleteSessionsOfUser(db: Executor, userId: string): Promise<string[]> {
  const rows = await db.deleteFrom('sessions').where('user_id', '=', userId).returning('id_hash').execute();
  return rows.map((row) => row.id_hash);
}

/** The sessions a token signed in; returns their hashes, like deleteSessionsOfUser. */
export async function deleteSessionsOfToken(db: Executor, tokenId: string): Promise<string[]> {
  const rows = await db.deleteFrom('sessions').where('token_id', '=', tokenId).returning('id_hash').execute();
  return rows.map((row) => row.id_hash);
}
