import type { Credential } from '../http/credential';
import { judgeSession, type SessionTimes } from '../users/session-policy';

/** A session's times as stored; the port it was made for is where it is used, so only these matter. */
export type StoredSession = Omit<SessionTimes, 'port'>;

/** What the store still holds of the credentials of open streams, in one read. */
export interface StoredCredentials {
  tokenIds: ReadonlySet<string>;
  /** By id hash. */
  sessions: ReadonlyMap<string, StoredSession>;
}

/** Whether a stream opened with `credential` may stay open: its token exists, its session lives. */
export function credentialLives(credential: Credential, stored: StoredCredentials, at: Date): boolean {
  if (credential.kind === 'token') return stored.tokenIds.has(credential.tokenId);
  const session = stored.sessions.get(credential.sessionIdHash);
  return session !== undefined && judgeSession({ ...session, port: null }, at, null).live;
}
