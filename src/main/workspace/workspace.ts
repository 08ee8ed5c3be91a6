import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { openDatabase, refreshPlannerStatistics, type OpenOptions } from '../db/connection';
import type { Db } from '../db/database';
import { migrateToLatest } from '../db/migrate';
import { databaseFile, tokenFile } from './data-dir';
import { ensureServerKey } from '../identity/server-key';
import { findWorkspaceOwner } from '../users/users.repository';
import { createUser } from '../users/users.service';

export interface Workspace {
  dataDir: string;
  db: Db;
  /** Set only on the first start, when the owner and its token were just created. */
  createdToken: string | null;
  close(): Promise<void>;
}

export interface WorkspaceOptions extends OpenOptions {
  /** `SCANDESK_TOKEN` at first start becomes the owner's token instead of a random one. */
  initialToken?: string | undefined;
  /** Told the pending migrations before an existing store is upgraded (see migrateToLatest). */
  onUpgrade?: ((pending: string[]) => void) | undefined;
}

export class WorkspaceError extends Error {
  override readonly name = 'WorkspaceError';
}

export function checkInitialToken(token: string): void {
  if (token.length < 16 || /[\s\p{Cc}]/u.test(token)) {
    throw new WorkspaceError('SCANDESK_TOKEN must be at least 16 characters with no spaces or control characters');
  }
}

/** Writes the token file readable by its owner only (mode 0600), whatever the umask. */
export function writeTokenFile(dataDir: string, token: string): void {
  const file = tokenFile(dataDir);
  writeFileSync(file, `${token}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
}

/**
 * Opens (creating if needed) a data directory: its server key, the database, migrated to the latest
 * schema, and on first start the workspace owner `local` with its token file.
 */
export async function openWorkspace(dataDir: string, options: WorkspaceOptions = {}): Promise<Workspace> {
  if (options.initialToken !== undefined) checkInitialToken(options.initialToken);
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  ensureServerKey(dataDir);
  const db = openDatabase(databaseFile(dataDir), options);
  try {
    const applied = await migrateToLatest(db, undefined, options.onUpgrade);
    if (applied.length > 0) await refreshPlannerStatistics(db);
    let createdToken: string | null = null;
    if (!(await findWorkspaceOwner(db))) {
      const created = await createUser(db, 'local', { workspaceOwner: true, token: options.initialToken });
      writeTokenFile(dataDir, created.token);
      createdToken = created.token;
    }
    return { dataDir, db, createdToken, close: () => db.destroy() };
  } catch (error) {
    await db.destroy();
    throw error;
  }
}
