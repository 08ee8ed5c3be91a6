#!/usr/bin/env node
// `npm run build:cli` (and `prepare`, so `npm ci` leaves a runnable `scandesk`): bundles the CLI and
// the server it starts into out/cli/, so a run loads plain JavaScript instead of compiling TypeScript
// through tsx at every start. Packages are bundled too, all but native addons; each command's own
// modules stay in chunks loaded on demand, so `scandesk --help` does not load the server.
// bin/scandesk.js runs the sources instead while this build is missing or older than any source file.
import { rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
export const CLI_OUT_DIR = join(root, 'out', 'cli');
/**
 * What bin/scandesk.js compares the build's time with: the sources it was built from, and npm's
 * record of node_modules, which every install rewrites (the packages are in the bundle too).
 */
export const CLI_INPUTS_FILE = join(CLI_OUT_DIR, 'inputs.json');
const INSTALL_RECORD = 'node_modules/.package-lock.json';
/** Loaded from node_modules at run time: a native addon cannot be bundled (pg-native is pg's optional one). */
const NATIVE_PACKAGES = ['better-sqlite3', 'pg-native'];

/** Builds out/cli/scandesk.js; `clean` first removes the chunks of earlier builds. */
export async function buildCli({ clean = false } = {}) {
  if (clean) rmSync(CLI_OUT_DIR, { recursive: true, force: true });
  const { metafile } = await build({
    absWorkingDir: root,
    entryPoints: { scandesk: 'src/cli/run.ts' },
    outdir: CLI_OUT_DIR,
    chunkNames: 'chunks/[name]-[hash]',
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    // Resolving and reading some 570 files of node_modules one by one was most of `serve`'s start;
    // bundled, they are a few chunks. Native addons stay outside, loaded where npm installed them.
    external: NATIVE_PACKAGES,
    // Bundled CommonJS packages require Node's own modules, which an ES module can only do so.
    banner: {
      js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
    },
    sourcemap: 'linked',
    logLevel: 'warning',
    metafile: true,
  });
  const sources = Object.keys(metafile.inputs).filter((input) => input.startsWith('src/'));
  writeFileSync(CLI_INPUTS_FILE, `${JSON.stringify([...sources, INSTALL_RECORD])}\n`);
}

// `--keep` leaves earlier chunks in place, for a build while another run may still be loading them.
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href)
  await buildCli({ clean: !process.argv.includes('--keep') });
