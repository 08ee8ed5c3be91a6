import type { Executor, TokenRow } from '../db/index';

/** A user's tokens, oldest first. */
export async function listTokensOfUser(db: Executor, userId: string): Promise<TokenRow[]> {
  return db
    .selectFrom('tokens')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

export async function findTokenById(db: Executor, id: string): Promise<TokenRow | undefined> {
  return db.selectFrom('tokens').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function deleteToken(db: Executor, id: string): Promise<void> {
  await db.deleteFrom('tokens').where('id', '=', id).execute();
}
