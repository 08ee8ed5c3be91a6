import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import type { Db } from '../../src/main/db/database';
import { buildApp, type AppOptions } from '../../src/main/server/app';
import type { App } from '../../src/main/http/route-types';
import { findWorkspaceOwner } from '../../src/main/users/users.repository';
import { createUser } from '../../src/main/users/users.service';
import { openWorkspace, type Workspace } from '../../src/main/workspace/workspace';
import { dropTestDatabase, testDatabaseFor } from './test-database';

export interface TestUser {
  id: string;
  name: string;
  token: string;
}

export interface TestContext {
  app: App;
  db: Db;
  workspace: Workspace;
  dataDir: string;
  owner: TestUser;
  /** Creates another user with a token, straight in the store. */
  createUser(name: string): Promise<TestUser>;
  /** Signs in as a browser does, with `/?token=` (default: the owner); returns the `Cookie` header. */
  signIn(user?: TestUser): Promise<string>;
  /** Injects a request as `as` (default: the workspace owner); `as: null` sends no token. */
  request(options: InjectOptions & { as?: TestUser | null }): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

/** A fresh data directory, migrated database (of the run's backend) and in-process app; no socket. */
export async function createTestContext(options: Partial<Omit<AppOptions, 'db'>> = {}): Promise<TestContext> {
  const dataDir = mkdtempSync(join(tmpdir(), 'scandesk-test-'));
  const workspace = await openWorkspace(dataDir, { database: await testDatabaseFor(dataDir) });
  const app = await buildApp({ db: workspace.db, version: 'test', dataDir, ...options });
  await app.ready();
  const ownerRow = await findWorkspaceOwner(workspace.db);
  const owner: TestUser = { id: ownerRow!.id, name: ownerRow!.name, token: workspace.createdToken! };
  return {
    app,
    db: workspace.db,
    workspace,
    dataDir,
    owner,
    async createUser(name) {
      const created = await createUser(workspace.db, name);
      return { id: created.user.id, name: created.user.name, token: created.token };
    },
    async signIn(user = owner) {
      const response = await app.inject({ method: 'GET', url: `/?token=${encodeURIComponent(user.token)}` });
      const cookie = [response.headers['set-cookie'] ?? []].flat()[0];
      if (response.statusCode !== 303 || !cookie) throw new Error(`sign-in failed: ${response.statusCode}`);
      return cookie.split(';')[0]!;
    },
    request({ as, headers, ...rest }) {
      const user = as === undefined ? owner : as;
      return app.inject({
        ...rest,
        headers: { ...(user ? { authorization: `Bearer ${user.token}` } : {}), ...headers },
      });
    },
    async close() {
      await app.close();
      await workspace.close();
      await dropTestDatabase(dataDir);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
