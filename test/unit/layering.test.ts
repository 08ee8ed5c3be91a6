import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

// The process boundaries are enforced by lint; these probes prove the rules bite.
const eslint = new ESLint();

async function restrictedMessages(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).filter((m) => m.ruleId?.startsWith('no-restricted-')).map((m) => m.message);
}

describe('layering rules', () => {
  it.each([
    ['src/shared/probe.ts', "import { readFileSync } from 'node:fs';\nexport const f = readFileSync;\n"],
    ['src/shared/probe.ts', "import { app } from 'electron';\nexport const a = app;\n"],
    [
      'src/shared/probe.ts',
      "import { defaultDataDir } from '../main/workspace/data-dir';\nexport const p = defaultDataDir;\n",
    ],
    ['src/shared/probe.ts', 'export const w = window.location;\n'],
    ['src/main/users/probe.ts', "import { app } from 'electron';\nexport const a = app;\n"],
    ['src/main/probe.ts', "import { App } from '../renderer/src/App';\nexport const a = App;\n"],
    [
      'src/renderer/src/probe.ts',
      "import { defaultDataDir } from '../../main/workspace/data-dir';\nexport const p = defaultDataDir;\n",
    ],
    ['src/renderer/src/probe.ts', "import { join } from 'node:path';\nexport const j = join;\n"],
    ['src/main/core.ts', "import { app } from 'electron';\nexport const a = app;\n"],
    [
      'src/main/users/probe.ts',
      "import { createMainWindow } from '../desktop/window';\nexport const w = createMainWindow;\n",
    ],
    [
      'src/main/desktop/probe.ts',
      "import { openWorkspace } from '../workspace/workspace';\nexport const o = openWorkspace;\n",
    ],
    [
      'src/main/desktop/probe.ts',
      "import { findScan } from '../scans/scans.repository';\nexport const f = findScan;\n",
    ],
    ['src/main/scans/probe.ts', "import SQLite from 'better-sqlite3';\nexport const s = SQLite;\n"],
    ['src/main/server/probe.ts', "import pg from 'pg';\nexport const p = pg;\n"],
    [
      'src/main/scans/probe.ts',
      "import { authenticate } from '../server/auth/authenticate';\nexport const a = authenticate;\n",
    ],
    [
      'src/main/server/viewer/probe.ts',
      "import { findScan } from '../../scans/scans.repository';\nexport const f = findScan;\n",
    ],
    ['src/main/server/request-guards/probe.ts', "import pg from 'pg';\nexport const p = pg;\n"],
    ['src/cli/probe.ts', "import pg from 'pg';\nexport const p = pg;\n"],
    [
      'src/cli/commands/probe.ts',
      "import { findWorkspaceOwner } from '../../main/users/users.repository';\nexport const f = findWorkspaceOwner;\n",
    ],
    ['src/cli/probe.ts', "import { tokenFile } from '../main/workspace/data-dir';\nexport const t = tokenFile;\n"],
    ['src/cli/probe.ts', "import { openWorkspace } from '../main/core';\nexport const o = openWorkspace;\n"],
    [
      'bench/lib/probe.ts',
      "import { cleanupProcesses } from '../../test/helpers/serve-process';\nexport const c = cleanupProcesses;\n",
    ],
    [
      'bench/probe.ts',
      "import { startCluster } from '../test/helpers/postgres-cluster';\nexport const s = startCluster;\n",
    ],
    ['test/e2e/probe.ts', "import { COLUMNS } from '../../bench/lib/table';\nexport const c = COLUMNS;\n"],
    ['test/fixtures/probe.ts', "import { ROOT } from '../helpers/serve-process';\nexport const r = ROOT;\n"],
    [
      'src/main/teams/probe.ts',
      "import type { Db } from '../db/index';\nexport const t = (db: Db) => db.transaction().execute(async () => 1);\n",
    ],
    ['src/main/scans/probe.ts', "import { BulkInserter } from '../db/bulk-insert';\nexport const b = BulkInserter;\n"],
    [
      'src/main/evidence/import/probe.ts',
      "import type { ScanRow } from '../../db/tables/scan.table';\nexport const r = (row: ScanRow) => row.id;\n",
    ],
    ['src/main/live/probe.ts', "import { listen } from '../db/postgres/notifications';\nexport const l = listen;\n"],
    [
      'src/main/server/probe.ts',
      "import { warmWalCheckpointer } from '../db/sqlite/sqlite-connection';\nexport const w = warmWalCheckpointer;\n",
    ],
  ])('refuses %s importing across the boundary: %s', async (file, code) => {
    expect(await restrictedMessages(file, code)).not.toEqual([]);
  });

  it.each([
    ['src/main/probe.ts', "import { ERROR_STATUS } from '../shared/api/errors';\nexport const e = ERROR_STATUS;\n"],
    [
      'src/renderer/src/probe.ts',
      "import { ERROR_STATUS } from '../../shared/api/errors';\nexport const e = ERROR_STATUS;\n",
    ],
    ['src/main/desktop/main.ts', "import { app } from 'electron';\nexport const a = app;\n"],
    ['src/main/scans/probe.ts', "import { notFound } from '../domain-error';\nexport const n = notFound;\n"],
    ['src/main/desktop/probe.ts', "import { openWorkspace } from '../core';\nexport const o = openWorkspace;\n"],
    ['src/main/desktop/probe.ts', "import { isAppUrl } from './navigation-policy';\nexport const i = isAppUrl;\n"],
    [
      'src/main/desktop/probe.ts',
      "import { DESKTOP_CHANNELS } from '../../shared/desktop-api';\nexport const d = DESKTOP_CHANNELS;\n",
    ],
    ['src/main/db/probe.ts', "import pg from 'pg';\nexport const p = pg;\n"],
    ['src/main/teams/probe.ts', "import { inTransaction } from '../db/index';\nexport const t = inTransaction;\n"],
    [
      'src/main/server/request-guards/probe.ts',
      "import { forbidden } from '../../domain-error';\nimport { isApiPath } from '../request-path';\nimport { MINUTE_MS } from '../../../shared/time';\nexport const f = [forbidden, isApiPath, MINUTE_MS];\n",
    ],
    [
      'src/main/server/auth/probe.ts',
      "import { findUserById } from '../../users/users.repository';\nexport const f = findUserById;\n",
    ],
    [
      'src/cli/commands/probe.ts',
      "import { openWorkspace } from '../../main/cli-core';\nexport const o = openWorkspace;\n",
    ],
    ['src/cli/probe.ts', "import { VERSION } from '../main/cli-core';\nexport const v = VERSION;\n"],
    ['src/cli/probe.ts', "import { SEVERITIES } from '../shared/api/scans';\nexport const s = SEVERITIES;\n"],
    [
      'bench/lib/probe.ts',
      "import { seededRandom } from '../../test/fixtures/seeded-random';\nexport const s = seededRandom;\n",
    ],
    [
      'test/helpers/probe.ts',
      "import { seededRandom } from '../fixtures/seeded-random';\nexport const s = seededRandom;\n",
    ],
    [
      'src/main/evidence/import/probe.ts',
      "import type { ScanRow } from '../../db/index';\nexport const r = (row: ScanRow) => row.id;\n",
    ],
    [
      'src/main/db/probe.ts',
      "import { openSqlite } from './sqlite/sqlite-connection';\nexport const o = openSqlite;\n",
    ],
    ['src/main/db/sqlite/probe.ts', "import type { Db } from '../database';\nexport const d = (db: Db) => db;\n"],
  ])('allows %s: %s', async (file, code) => {
    expect(await restrictedMessages(file, code)).toEqual([]);
  });
});
