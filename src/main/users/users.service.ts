import { type Db, type Executor, inTransaction, type UserRow } from '../db/index';
import { currentTimestamp } from '../../shared/time';
import { newId } from '../ids';
import { generateToken } from './token';
import { findWorkspaceOwner, insertToken, insertUser } from './users.repository';

export interface CreatedUser {
  user: UserRow;
  token: string;
}

/** Creates a user with a first token; the token is returned once and stored only hashed. */
export async function createUser(
  db: Db,
  name: string,
  options: { workspaceOwner?: boolean; token?: string } = {},
): Promise<CreatedUser> {
  return inTransaction(db, (trx) => insertUserWithToken(trx, name, options));
}

/**
 * Creates the workspace owner `local` unless there is one; null when there was. Serializable, so
 * two servers starting at once on one empty PostgreSQL database cannot both create one: the
 * second's attempt fails to serialize, runs again and finds the first's owner.
 */
export async function ensureWorkspaceOwner(db: Db, token: string | undefined): Promise<CreatedUser | null> {
  return inTransaction(db, async (trx) =>
    (await findWorkspaceOwner(trx)) ? null : insertUserWithToken(trx, 'local', { workspaceOwner: true, token }),
  );
}

async function insertUserWithToken(
  trx: Executor,
  name: string,
  options: { workspaceOwner?: boolean; token?: string | undefined },
): Promise<CreatedUser> {
  const user: UserRow = {
    id: newId('user'),
    name: name.trim(),
    is_workspace_owner: options.workspaceOwner ? 1 : 0,
    created_at: currentTimestamp(),
  };
  const token = options.token ?? generateToken();
  await insertUser(trx, user);
  await insertToken(trx, { id: newId('token'), user_id: user.id, token, created_at: user.created_at });
  return { user, token };
}

export function toUser(row: UserRow): { id: string; name: string; created_at: string } {
  return { id: row.id, name: row.name, created_at: row.created_at };
}
