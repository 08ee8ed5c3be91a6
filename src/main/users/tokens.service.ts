import type { CreatedToken, TokenInfo } from '../../shared/api/tokens';
import { currentTimestamp } from '../../shared/time';
import { type Db, type Executor, inTransaction, type TokenRow, type UserRow } from '../db/index';
import { conflict, forbidden, notFound } from '../domain-error';
import { newId } from '../ids';
import { endStreams } from '../live/live.service';
import { deleteSessionsOfToken, deleteSessionsOfUser } from './sessions.repository';
import { generateToken, hashesEqual, hashToken } from './token';
import type { TokenFile } from './token-file';
import { mayManageTokensOf, tokenHint } from './token-policy';
import { deleteToken, findTokenById, listTokensOfUser } from './tokens.repository';
import { deleteTokensOfUser, findUserById, insertToken } from './users.repository';

// Each user manages their own tokens, the workspace owner everyone's (docs/security.md, Tokens).
// Ending a token ends what it opened: the browser sessions it signed in and, in this process,
// their event streams and its own (another process's streams end at its next check).

export function toTokenInfo(row: TokenRow): TokenInfo {
  return {
    id: row.id,
    user_id: row.user_id,
    created_at: row.created_at,
    last_used_at: row.last_used_at,
    hint: row.hint,
  };
}

/**
 * The user whose tokens `caller` asks about. Another user's tokens are the workspace owner's
 * business alone (403, whether or not that user exists: user ids are no secret to members of a
 * shared organization, but which exist is the owner's to know).
 */
async function managedUser(db: Db, caller: UserRow, userId: string): Promise<UserRow> {
  if (!mayManageTokensOf(caller, userId)) {
    throw forbidden("only the workspace owner may manage another user's tokens");
  }
  if (caller.id === userId) return caller;
  const user = await findUserById(db, userId);
  if (!user) throw notFound('user');
  return user;
}

/** A token `caller` may manage; anyone else's is not found, so its existence does not leak. */
async function managedToken(db: Db, caller: UserRow, tokenId: string): Promise<TokenRow> {
  const token = await findTokenById(db, tokenId);
  if (!token || !mayManageTokensOf(caller, token.user_id)) throw notFound('token');
  return token;
}

export async function findToken(db: Db, caller: UserRow, tokenId: string): Promise<TokenInfo> {
  return toTokenInfo(await managedToken(db, caller, tokenId));
}

export async function listTokens(db: Db, caller: UserRow, userId: string): Promise<TokenInfo[]> {
  const user = await managedUser(db, caller, userId);
  return (await listTokensOfUser(db, user.id)).map(toTokenInfo);
}

/** Issues another token for a user; the answer holds it once, the store only its hash. */
export async function createToken(db: Db, caller: UserRow, userId: string): Promise<CreatedToken> {
  const user = await managedUser(db, caller, userId);
  return issueToken(db, user.id, (trx, row) => insertToken(trx, row));
}

/**
 * Revokes one token and ends the sessions it signed in and its streams. The data directory's
 * token file is refused (409): the file would go on holding a dead token that `scandesk token`
 * prints and the CLI sends; rotating replaces it instead.
 */
export async function revokeToken(db: Db, caller: UserRow, tokenId: string, tokenFile?: TokenFile): Promise<void> {
  const token = await managedToken(db, caller, tokenId);
  if (tokenFile && holdsToken(tokenFile, token)) {
    throw conflict(
      "this is the data directory's token (its token file, which the CLI uses): rotate it instead " +
        '(`scandesk token --rotate`, or POST /v1/users/{user_id}/tokens/rotate)',
    );
  }
  const sessions = await inTransaction(db, async (trx) => {
    const ended = await deleteSessionsOfToken(trx, token.id);
    await deleteToken(trx, token.id);
    return ended;
  });
  endStreams(db, { tokenId: token.id });
  for (const sessionIdHash of sessions) endStreams(db, { sessionIdHash });
}

/**
 * Revokes every token of a user and issues one new one; every session of the user ends (the
 * desktop window's too) and so do their streams. Where the data directory's token file held one
 * of the revoked tokens, it gets the new one, so `scandesk token` never prints a dead token.
 */
export async function rotateTokens(
  db: Db,
  caller: UserRow,
  userId: string,
  tokenFile?: TokenFile,
): Promise<CreatedToken> {
  const user = await managedUser(db, caller, userId);
  const fileToken = tokenFile?.read() ?? null;
  let fileRevoked = false;
  const created = await issueToken(db, user.id, async (trx, row) => {
    const revoked = await listTokensOfUser(trx, user.id);
    fileRevoked = fileToken !== null && revoked.some((each) => hashesEqual(each.token_hash, hashToken(fileToken)));
    await deleteTokensOfUser(trx, user.id);
    await deleteSessionsOfUser(trx, user.id);
    await insertToken(trx, row);
  });
  if (fileRevoked) tokenFile?.write(created.token);
  endStreams(db, { userId: user.id });
  return created;
}

/** Rotation without a caller: the data directory's holder, through `scandesk token --rotate`. */
export async function rotateTokensOf(db: Db, userId: string): Promise<CreatedToken> {
  const user = await findUserById(db, userId);
  if (!user) throw notFound('user');
  return rotateTokens(db, user, userId);
}

type NewTokenRow = { id: string; user_id: string; token: string; created_at: string };

/** Makes a token and runs `write` (which stores it, maybe with more) in one transaction. */
async function issueToken(
  db: Db,
  userId: string,
  write: (trx: Executor, row: NewTokenRow) => Promise<void>,
): Promise<CreatedToken> {
  const token = generateToken();
  const row = { id: newId('token'), user_id: userId, token, created_at: currentTimestamp() };
  await inTransaction(db, (trx) => write(trx, row));
  return { id: row.id, user_id: userId, created_at: row.created_at, last_used_at: null, hint: tokenHint(token), token };
}

function holdsToken(tokenFile: TokenFile, token: TokenRow): boolean {
  const content = tokenFile.read();
  return content !== null && hashesEqual(token.token_hash, hashToken(content));
}
