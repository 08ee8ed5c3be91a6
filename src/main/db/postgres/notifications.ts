import { sql } from 'kysely';
import type pg from 'pg';
import type { Db } from '../database';
import { poolOf } from './postgres-connection';

/**
 * PostgreSQL's LISTEN/NOTIFY, for telling every server process on one database what changed.
 * A notification is delivered only once its transaction commits, to every listening session,
 * the sender's own included. Payloads are text of at most NOTIFY_MAX_BYTES.
 */
export const NOTIFY_MAX_BYTES = 7900;

export async function notify(db: Db, channel: string, payload: string): Promise<void> {
  await sql`SELECT pg_notify(${channel}, ${payload})`.execute(db);
}

export interface Listener {
  close(): Promise<void>;
}

/**
 * Holds one pool connection LISTENing on `channel` until closed. When the connection fails (the
 * database restarted, say), `onLost` hears why and the caller decides whether to listen again:
 * notifications sent meanwhile are not replayed.
 */
export async function listen(
  db: Db,
  channel: string,
  onPayload: (payload: string) => void,
  onLost: (error: Error) => void,
): Promise<Listener> {
  const client = await poolOf(db).connect();
  const onNotification = (message: pg.Notification) => {
    if (message.channel === channel) onPayload(message.payload ?? '');
  };
  let released = false;
  const release = (error?: Error) => {
    if (released) return;
    released = true;
    client.off('notification', onNotification);
    client.off('error', onError);
    client.release(error ?? true);
  };
  const onError = (error: Error) => {
    release(error);
    onLost(error);
  };
  client.on('notification', onNotification);
  client.on('error', onError);
  try {
    await client.query(`LISTEN ${client.escapeIdentifier(channel)}`);
  } catch (error) {
    release(error as Error);
    throw error;
  }
  return {
    async close() {
      if (released) return;
      await client.query(`UNLISTEN ${client.escapeIdentifier(channel)}`).catch(() => undefined);
      // Released as broken (true): the session is not handed to the next query with state left on it.
      release();
    },
  };
}
