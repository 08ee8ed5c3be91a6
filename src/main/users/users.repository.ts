import { type Executor, type NewUser, ReusableQuery, type UserRow } from '../db/index';
import { hashesEqual, hashToken } from './token';
import { isTokenUseDue, tokenHint } from './token-policy';

export async function insertUser(db: Executor, user: NewUser): Promise<void> {
  await db.insertInto('users').values(user).execute();
}

export async function findUserById(db: Executor, id: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function findWorkspaceOwner(db: Executor): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('is_workspace_owner', '=', 1).executeTakeFirst();
}

export async function listUsers(db: Executor): Promise<UserRow[]> {
  return db
    .selectFrom('users')
    .selectAll()
    .orderBy((eb) => eb.fn('lower', ['name']))
    .orderBy('name')
    .orderBy('id')
    .execute();
}

export async function deleteUser(db: Executor, id: string): Promise<void> {
  await db.deleteFrom('users').where('id', '=', id).execute();
}

/** Stores a token's hash and hint; the token itself is never stored. */
export async function insertToken(
  db: Executor,
  token: { id: string; user_id: string; token: string; created_at: string },
): Promise<void> {
  await db
    .insertInto('tokens')
    .values({
      id: token.id,
      user_id: token.user_id,
      token_hash: hashToken(token.token),
      hint: tokenHint(token.token),
      created_at: token.created_at,
    })
    .execute();
}

/** Revokes every token of a user; returns the ids of those revoked. */
export async function deleteTokensOfUser(db: Executor, userId: string): Promise<string[]> {
  const rows = await db.deleteFrom('tokens').where('user_id', '=', userId).returning('id').execute();
  return rows.map((row) => row.id);
}

const USER_BY_TOKEN_HASH = new ReusableQuery((db) =>
  db
    .selectFrom('tokens')
    .innerJoin('users', 'users.id', 'tokens.user_id')
    .select([
      'users.id',
      'users.name',
      'users.is_workspace_owner',
      'users.created_at',
      'tokens.token_hash',
      'tokens.id as token_id',
      'tokens.last_used_at as token_last_used_at',
    ])
    .where('tokens.token_hash', '=', ''),
);

/**
 * The user a presented token belongs to and which token it is (open event streams end with that
 * token), found by its hash and compared in constant time. The token's use is written down at
 * most once a minute (its owner sees when it was last used).
 */
export async function findTokenCredential(
  db: Executor,
  token: string,
  at = new Date(),
): Promise<{ user: UserRow; tokenId: string } | undefined> {
  const hash = hashToken(token);
  const row = (await USER_BY_TOKEN_HASH.execute(db, [hash])).rows[0];
  if (!row || !hashesEqual(row.token_hash, hash)) return undefined;
  const { token_hash: _hash, token_id: tokenId, token_last_used_at: lastUsedAt, ...user } = row;
  if (isTokenUseDue(lastUsedAt, at)) {
    await db.updateTable('tokens').set({ last_used_at: at.toISOString() }).where('id', '=', tokenId).execute();
  }
  return { user, tokenId };
}

/** The user a presented token belongs to. */
export async function findUserByToken(db: Executor, token: string): Promise<UserRow | undefined> {
  return (await findTokenCredential(db, token))?.user;
}
