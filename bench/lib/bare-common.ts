/**
 * What both bare baseline servers share: the workspace opened the way the app opens it (so the
 * schema, owner and token are the app's own), then the raw better-sqlite3 handle with the app's
 * pragmas, and the little HTTP plumbing a server without a framework still needs.
 */
import { timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type SQLite from 'better-sqlite3';
import { openSqlite } from '../../src/main/db/sqlite/sqlite-connection';
import { databaseFile, tokenFile } from '../../src/main/workspace/data-dir';
import { findWorkspaceOwner } from '../../src/main/users/users.repository';
import { openWorkspace } from '../../src/main/workspace/workspace';

export interface BareStore {
  sqlite: SQLite.Database;
  ownerId: string;
  token: Buffer;
}

/**
 * Opens (creating if needed) a data dir the way the app does, so that its schema, owner and
 * token are the app's own, and closes it again: the owner's id.
 */
export async function prepareWorkspace(dataDir: string, database?: string): Promise<string> {
  const workspace = await openWorkspace(dataDir, {
    database: database ? { kind: 'postgres', url: database } : undefined,
  });
  try {
    return (await findWorkspaceOwner(workspace.db))!.id;
  } finally {
    await workspace.close();
  }
}

export async function openBareStore(dataDir: string | undefined): Promise<BareStore> {
  if (!dataDir) throw new Error('usage: node --import tsx bench/lib/<bare-server>.ts DATA_DIR');
  const ownerId = await prepareWorkspace(dataDir);
  return {
    sqlite: openSqlite(databaseFile(dataDir)),
    ownerId,
    token: Buffer.from(readFileSync(tokenFile(dataDir), 'utf8').trim()),
  };
}

/**
 * The real server looks the token's hash up per request; the baseline only compares it with the
 * one token there is, the least any server must do before writing on someone's behalf.
 */
export function authorized(request: IncomingMessage, token: Buffer): boolean {
  const header = request.headers.authorization ?? '';
  const given = Buffer.from(header.startsWith('Bearer ') ? header.slice(7) : '');
  return given.length === token.length && timingSafeEqual(given, token);
}

export function sendJson(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  response.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(text),
    ...headers,
  });
  response.end(text);
}

/** Listens on 127.0.0.1, port 0, and prints the URL the harness waits for; stops on SIGTERM. */
export function listen(server: Server, closeStore: () => unknown): void {
  server.listen(0, '127.0.0.1', () => {
    const { port } = server.address() as AddressInfo;
    process.stdout.write(`listening on http://127.0.0.1:${port}\n`);
  });
  process.once('SIGTERM', () => {
    // Keep-alive sockets would hold close() open; closing the database is what matters (WAL).
    server.closeAllConnections();
    server.close();
    void Promise.resolve(closeStore()).finally(() => process.exit(0));
  });
}
