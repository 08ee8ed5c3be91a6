/**
 * An imported scan's package id in the CLI: `scans get` shows it, `scans list --package-id` finds
 * the scan by it, and only for the user who imported it.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { derivedScanId } from '../../../src/main/evidence/import/import-ids';
import type { ScanList } from '../../../src/shared/api/scans';
import { oneScanPackage } from '../../helpers/import-fixtures';
import { cliAt, makeTempDir, runCli, startServe, type ServeProcess } from '../../helpers/serve-process';
import { expectExit, lines, stopServers } from '../../helpers/cli-output';

const PACKAGE_ID = 'UP-7731';

describe('scandesk scans and package ids', () => {
  let server: ServeProcess;
  let cli: ReturnType<typeof cliAt>;
  let stored: string;
  let otherToken: string;

  beforeAll(async () => {
    server = await startServe();
    cli = cliAt(server);
    const dir = makeTempDir('scandesk-cli-package-id-');
    writeFileSync(join(dir, 'upstream.zip'), oneScanPackage(PACKAGE_ID));
    const me = await fetch(`${server.url}/v1/me`, { headers: { authorization: `Bearer ${server.token}` } });
    stored = derivedScanId(((await me.json()) as { id: string }).id, PACKAGE_ID);
    expectExit(await cli('import', join(dir, 'upstream.zip')), 0);
    const other = await fetch(`${server.url}/v1/users`, {
      method: 'POST',
      headers: { authorization: `Bearer ${server.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'other' }),
    });
    otherToken = ((await other.json()) as { token: string }).token;
  });

  afterAll(() => stopServers(server));

  it('scans get shows the id the scan had in its package', async () => {
    const result = await cli('scans', 'get', stored);
    expectExit(result, 0);
    expect(lines(result.stdout)).toContain(`package id    ${PACKAGE_ID}`);
    expect(result.stdout).not.toContain('package from');
  });

  it('scans list --package-id finds it for its importer, and for nobody else', async () => {
    const found = await cli('scans', 'list', '--package-id', PACKAGE_ID, '--json');
    expectExit(found, 0);
    expect((JSON.parse(found.stdout) as ScanList).scans.map((scan) => scan.id)).toEqual([stored]);
    const table = await cli('scans', 'list', '--package-id', PACKAGE_ID);
    expect(lines(table.stdout)[1]).toMatch(new RegExp(`^${stored}\\s`));

    const other = await runCli([
      'scans',
      'list',
      '--package-id',
      PACKAGE_ID,
      '--url',
      server.url,
      '--token',
      otherToken,
    ]);
    expectExit(other, 0);
    expect(lines(other.stdout)).toEqual(['no scans match']);
  });
});
