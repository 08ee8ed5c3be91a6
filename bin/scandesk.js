#!/usr/bin/env node
// Runs the built CLI (out/cli/, `npm run build:cli`, which `npm ci` runs as `prepare`). It runs the
// TypeScript sources through tsx instead (development) when SCANDESK_FROM_SOURCES=1, or when the build
// is missing or older than a file it was built from, so an edit is never masked by a stale build.
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const built = join(root, 'out', 'cli', 'scandesk.js');

/**
 * The build lists its inputs (scripts/build-cli.mjs): the source files it bundled and npm's record
 * of an install. A file added since matters only once an edited, listed file imports it; a listed
 * file removed or renamed is an edit too. One stat each, no walk of src/, at every start.
 */
function builtIsCurrent() {
  try {
    const builtAt = statSync(built).mtimeMs;
    const inputs = JSON.parse(readFileSync(join(root, 'out', 'cli', 'inputs.json'), 'utf8'));
    return inputs.every((input) => statSync(join(root, input)).mtimeMs <= builtAt);
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
