#!/usr/bin/env node
// `npm start`: the desktop app where the Electron binary is installed; elsewhere the same UI,
// served headless by `scandesk serve`. Extra arguments go to `scandesk serve`.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const electronDir = join(root, 'node_modules', 'electron');
const bin = (name) => join(root, 'node_modules', '.bin', name);

function electronBinaryInstalled() {
  const pathFile = join(electronDir, 'path.txt');
  if (!existsSync(pathFile)) return false;
  return existsSync(join(electronDir, 'dist', readFileSync(pathFile, 'utf8').trim()));
}

// Electron 42+ fetches its binary on first use; try once, quietly, and fall back if it cannot.
function tryInstallElectron() {
  if (process.env.SCANDESK_HEADLESS || !existsSync(join(electronDir, 'install.js'))) return false;
  const result = spawnSync(process.execPath, [join(electronDir, 'install.js')], {
    stdio: 'ignore',
    timeout: 300_000,
  });
  return result.status === 0 && electronBinaryInstalled();
}

function run(command, args) {
  const child = spawn(command, args, { cwd: root, stdio: 'inherit' });
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}

// The desktop app loads an Electron-ABI copy of better-sqlite3 (.native/), never the Node one the
// CLI and tests use; build it once, or fall back to headless if it cannot be built here.
function electronSqliteReady() {
  if (existsSync(join(root, '.native', 'better_sqlite3-electron.node'))) return true;
  console.error('Building better-sqlite3 for Electron (once)…');
  return (
    spawnSync(process.execPath, [join(root, 'scripts', 'build-native.mjs')], { cwd: root, stdio: 'inherit' }).status ===
    0
  );
}

const electron = !process.env.SCANDESK_HEADLESS && (electronBinaryInstalled() || tryInstallElectron());
if (electron && electronSqliteReady()) {
  run(bin('electron-vite'), ['preview']);
} else {
  console.error(
    electron
      ? 'better-sqlite3 could not be built for Electron here, so Scandesk runs headless: open the URL below in a browser.'
      : 'The Electron binary is not installed here, so Scandesk runs headless: open the URL below in a browser.',
  );
  const build = spawnSync(bin('electron-vite'), ['build'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
  if (build.status !== 0) process.exit(build.status ?? 1);
  run(process.execPath, [join(root, 'bin', 'scandesk.js'), 'serve', ...process.argv.slice(2)]);
}
