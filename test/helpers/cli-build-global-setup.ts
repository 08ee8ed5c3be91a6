/**
 * Vitest global setup: builds the CLI bundle (out/cli, ~0.5 s) before any test spawns
 * `bin/scandesk.js`, so the end-to-end suites run the current sources without compiling TypeScript at
 * every spawn. bin/scandesk.js would fall back to the sources if the build were older than them.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export default function setup(): void {
  const script = fileURLToPath(new URL('../../scripts/build-cli.mjs', import.meta.url));
  const result = spawnSync(process.execPath, [script, '--keep'], { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`building the CLI failed:\n${result.stderr}`);
}
