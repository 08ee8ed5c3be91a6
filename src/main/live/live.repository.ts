import { sql, type RawBuilder } from 'kysely';
import { dialectOf, type Executor } from '../db/index';
import type { StoredCredentials, StoredSession } from './credential-check';
import { managerKey } from './stream-visibility';

/**
 * `column IN (the strings of values)` as one parameter, a JSON array: the same statement
 * whatever the number of values (none included), and no limit on bound parameters.
 */
function inList(db: Executor, column: string, values: readonly string[]): RawBuilder<boolean> {
  const list = JSON.stringify(values);
  return dialectOf(db) === 'postgres'
    ? sql<boolean>`${sql.ref(column)} IN (SELECT jsonb_array_elements_text(CAST(${list} AS jsonb)))`
    : sql<boolean>`${sql.ref(column)} IN (SELECT value FROM json_each(${list}))`;
}

/** Which of these tokens still exist and what is left of these sessions: one query for both. */
export async function readCredentials(
  db: Executor,
  tokenIds: readonly string[],
  sessionIdHashes: readonly string[],
): Promise<StoredCredentials> {
  const rows = await db
    .selectFrom('tokens')
    .select([
      sql.lit('token').as('kind'),
      'id as key',
      sql.lit('').as('last_used_at'),
      sql.lit(0).as('idle_ms'),
      sql.lit('').as('expires_at'),
    ])
    .where(inList(db, 'tokens.id', tokenIds))
    .unionAll(
      db
        .selectFrom('sessions')
        .select([sql.lit('session').as('kind'), 'id_hash as key', 'last_used_at', 'idle_ms', 'expires_at'])
        .where(inList(db, 'sessions.id_hash', sessionIdHashes)),
    )
    .execute();
  const tokens = new Set<string>();
  const sessions = new Map<string, StoredSession>();
  for (const { kind, key, last_used_at, idle_ms, expires_at } of rows) {
    if (kind === 'token') tokens.add(key);
    else sessions.set(key, { last_used_at, idle_ms: Number(idle_ms), expires_at });
  }
  return { tokenIds: tokens, sessions };
}

/** managerKey(user, organization) for each of these users who owns or administers one of these organizations. */
export async function readManagers(
  db: Executor,
  userIds: readonly string[],
  organizationIds: readonly string[],
): Promise<Set<string>> {
  if (userIds.length === 0 || organizationIds.length === 0) return new Set();
  const rows = await db
    .selectFrom('memberships')
    .select(['user_id', 'organization_id'])
    .where('role', 'in', ['owner', 'admin'])
    .where(inList(db, 'memberships.organization_id', organizationIds))
    .where(inList(db, 'memberships.user_id', userIds))
    .execute();
  return new Set(rows.map((row) => managerKey(row.user_id, row.organization_id)));
}
