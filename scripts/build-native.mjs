#!/usr/bin/env node
// Builds better-sqlite3 for the installed Electron into .native/better_sqlite3-electron.node, which
// the desktop app loads through better-sqlite3's `nativeBinding` option (src/main/native-binding.ts)
// and electron-builder ships as resources/native/better_sqlite3.node. The build happens in a copy
// of the package under .native/electron-<abi>/, so node_modules/better-sqlite3 keeps its Node
// binary and the CLI and tests go on working after packaging.
//
// It compiles against Electron's headers, which node-gyp fetches from electronjs.org (or
// SCANDESK_ELECTRON_HEADERS_URL, a mirror) into ~/.electron-gyp unless they are already there.
import { rebuild } from '@electron/rebuild';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const readJson = (file) => JSON.parse(readFileSync(file, 'utf8'));

function fail(sentence) {
  console.error(`build-native: ${sentence}`);
  process.exit(1);
}

const electronDir = join(root, 'node_modules', 'electron');
const packageDir = join(root, 'node_modules', 'better-sqlite3');
if (!existsSync(join(electronDir, 'package.json')) || !existsSync(join(packageDir, 'package.json'))) {
  fail('run `npm ci` first: node_modules/electron and node_modules/better-sqlite3 are needed.');
}
const electronVersion = readJson(join(electronDir, 'package.json')).version;
const abi = readFileSync(join(electronDir, 'abi_version'), 'utf8').trim();
const sqliteVersion = readJson(join(packageDir, 'package.json')).version;
const headerURL = process.env.SCANDESK_ELECTRON_HEADERS_URL ?? 'https://www.electronjs.org/headers';
const arch = process.env.SCANDESK_NATIVE_ARCH ?? process.arch;

// Checked up front so that a machine without network access gets one clear sentence instead of
// node-gyp's stack of download errors.
async function headersAvailable() {
  if (existsSync(join(homedir(), '.electron-gyp', electronVersion, 'include', 'node', 'node.h'))) return true;
  const tarball = `${headerURL}/v${electronVersion}/node-v${electronVersion}-headers.tar.gz`;
  try {
    const response = await fetch(tarball, { method: 'HEAD', redirect: 'follow', signal: AbortSignal.timeout(15_000) });
    return response.ok;
  } catch {
    return false;
  }
}

if (!(await headersAvailable())) {
  fail(
    `building better-sqlite3 for Electron ${electronVersion} needs the Electron headers, which are neither in ` +
      `~/.electron-gyp/${electronVersion} nor reachable at ${headerURL}: run it on a machine with internet access ` +
      '(or set SCANDESK_ELECTRON_HEADERS_URL to a mirror).',
  );
}

const nativeDir = join(root, '.native');
const buildDir = join(nativeDir, `electron-${abi}`);
const output = join(nativeDir, 'better_sqlite3-electron.node');
rmSync(buildDir, { recursive: true, force: true });
mkdirSync(join(buildDir, 'node_modules'), { recursive: true });
// @electron/rebuild walks a project's dependencies: a one-dependency project around the copy.
writeFileSync(
  join(buildDir, 'package.json'),
  `${JSON.stringify({ name: `scandesk-native-electron-${abi}`, private: true, dependencies: { 'better-sqlite3': sqliteVersion } }, null, 2)}\n`,
);
// Without the Node build output: nothing of it may end up in the Electron build.
cpSync(packageDir, join(buildDir, 'node_modules', 'better-sqlite3'), {
  recursive: true,
  filter: (source) => relative(packageDir, source) !== 'build',
});

// npm exports its `nodedir` setting (which .ci/run sets for Node builds) to scripts it runs; node-gyp
// would then compile against Node's headers and produce a Node-ABI binary under an Electron name.
for (const name of Object.keys(process.env)) {
  if (name.toLowerCase() === 'npm_config_nodedir') Reflect.deleteProperty(process.env, name);
}

console.log(`build-native: better-sqlite3 ${sqliteVersion} for Electron ${electronVersion} (ABI ${abi}, ${arch})`);
try {
  await rebuild({
    buildPath: buildDir,
    electronVersion,
    arch,
    onlyModules: ['better-sqlite3'],
    force: true,
    // Prebuilt binaries would come from GitHub; compiling needs only the headers checked above.
    buildFromSource: true,
    headerURL,
    mode: 'sequential',
  });
} catch (error) {
  fail(`@electron/rebuild failed: ${error instanceof Error ? error.message : String(error)}`);
}

const built = join(buildDir, 'node_modules', 'better-sqlite3', 'build', 'Release', 'better_sqlite3.node');
if (!existsSync(built)) fail(`@electron/rebuild reported success but ${relative(root, built)} is missing.`);
cpSync(built, output);
console.log(`build-native: wrote ${relative(root, output)}`);
