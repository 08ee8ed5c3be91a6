#!/usr/bin/env node
// Runs the built CLI (out/cli/, `npm run build:cli`, which `npm ci` runs as `prepare`). It runs the
// TypeScript sources through tsx instead (development) when SCANDESK_FROM_SOURCES=1, or when the build
// is missing or older than a source file, so an edit is never masked by a stale build.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const built = join(root, 'out', 'cli', 'scandesk.js');

/** The newest modification time under `dir` (the renderer is not part of the CLI). */
function newestSource(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (path !== join(root, 'src', 'renderer')) newest = Math.max(newest, newestSource(path));
    } else newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

function builtIsCurrent() {
  try {
    return statSync(built).mtimeMs >= newestSource(join(root, 'src'));
  } catch {
    return false;
  }
}

if (process.env.SCANDESK_FROM_SOURCES !== '1' && builtIsCurrent()) {
  await import(new URL('../out/cli/scandesk.js', import.meta.url).href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('../src/cli/run.ts');
}
