import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../../helpers/serve-process';

// The CLI bundle (out/cli, built by the global setup) loads a command's chunk only when that
// command runs. What a chunk imports statically loads with it: `scandesk --help` and a client
// command must not pay for the server, the database drivers or undici at start-up.

const OUT = join(ROOT, 'out', 'cli');
const HEAVY = ['fastify', 'kysely', 'better-sqlite3', 'pg', 'undici', 'ajv'];

/** Static imports only (`import … from "./x.js"`, `import "./x.js"`), not `import("./x.js")`. */
const STATIC_IMPORT = /^(?:import|export)\s[^;]*?\bfrom\s*"([^"]+)"|^import\s*"([^"]+)"/gm;

/** The packages that loading `file` (relative to out/cli) loads with it, through its static imports. */
function packagesLoadedWith(file: string): Set<string> {
  const packages = new Set<string>();
  const seen = new Set<string>();
  const visit = (path: string): void => {
    if (seen.has(path)) return;
    seen.add(path);
    const code = readFileSync(join(OUT, path), 'utf8');
    // esbuild heads each bundled module with its path: `// node_modules/kysely/dist/esm/…`.
    for (const [, name] of code.matchAll(/^\/\/ (?:\S*\/)?node_modules\/((?:@[^/\s]+\/)?[^/\s]+)\//gm)) {
      packages.add(name!);
    }
    for (const match of code.matchAll(STATIC_IMPORT)) {
      const target = match[1] ?? match[2]!;
      if (target.startsWith('.')) visit(join(path, '..', target));
      else if (!target.startsWith('node:'))
        packages.add(target.split('/')[0]!.startsWith('@') ? target : target.split('/')[0]!);
    }
  };
  visit(file);
  return packages;
}

const chunk = (prefix: string): string => {
  const name = readdirSync(join(OUT, 'chunks')).find((file) => file.startsWith(`${prefix}-`) && file.endsWith('.js'));
  if (!name) throw new Error(`no ${prefix} chunk in out/cli/chunks`);
  return join('chunks', name);
};

describe('the CLI bundle', () => {
  it('starts (`--help`) without the server, a database driver or undici', () => {
    const loaded = packagesLoadedWith('scandesk.js');
    expect(HEAVY.filter((name) => loaded.has(name))).toEqual([]);
  });

  it('runs a client command (`scans list`) without them', () => {
    const loaded = packagesLoadedWith(chunk('scans.command'));
    expect(HEAVY.filter((name) => loaded.has(name))).toEqual([]);
  });

  it('is read by a probe that sees them where they are loaded', () => {
    const loaded = packagesLoadedWith(chunk('listen'));
    // undici is not among them: the sync client imports it at its first request.
    expect(HEAVY.filter((name) => loaded.has(name))).toEqual(['fastify', 'kysely', 'better-sqlite3', 'pg', 'ajv']);
  });
});
