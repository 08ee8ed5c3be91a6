import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { defaultDataDir, tokenFile } from '../../main/workspace/data-dir';
import { findWorkspaceOwner } from '../../main/users/users.repository';
import { rotateToken } from '../../main/users/users.service';
import { openWorkspace, writeTokenFile } from '../../main/workspace/workspace';
import { EXIT } from '../usage-error';
import { DATABASE_OPTION, databaseFlag } from './database-flag';

export async function tokenCommand(args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: { 'data-dir': { type: 'string' }, rotate: { type: 'boolean', default: false }, ...DATABASE_OPTION },
  });
  const dataDir = values['data-dir'] ?? defaultDataDir();
  if (values.rotate) {
    const workspace = await openWorkspace(dataDir, { database: databaseFlag(values.database) });
    try {
      const owner = await findWorkspaceOwner(workspace.db);
      if (!owner) throw new Error('the store has no workspace owner');
      writeTokenFile(dataDir, await rotateToken(workspace.db, owner.id));
    } finally {
      await workspace.close();
    }
  }
  try {
    process.stdout.write(`${readFileSync(tokenFile(dataDir), 'utf8').trim()}\n`);
    return EXIT.ok;
  } catch {
    process.stderr.write(
      `error: no token file at ${tokenFile(dataDir)}; start the server once with this data directory, or run \`scandesk token --rotate\`\n`,
    );
    return EXIT.failed;
  }
}
