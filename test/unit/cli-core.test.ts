import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/serve-process';

// A client command (`scandesk scans list`) starts at once because the CLI's door loads no server
// and no database driver until an operation needs them (about a second of loading).

/** The server and driver packages loaded once `module` (under src/main) is imported, in a fresh node. */
function heavyPackagesAfter(module: string): string[] {
  const script = `
    import { createRequire } from 'node:module';
    await import(${JSON.stringify(`./src/main/${module}`)});
    const loaded = Object.keys(createRequire(import.meta.url).cache);
    const heavy = new Set(loaded.map((file) => /node_modules\\/(fastify|better-sqlite3|pg)\\//.exec(file)?.[1]));
    heavy.delete(undefined);
    console.log(JSON.stringify([...heavy].sort()));
  `;
  const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  return JSON.parse(out) as string[];
}

describe('the CLI door (src/main/cli-core.ts)', () => {
  it('loads neither the server nor a database driver', () => {
    expect(heavyPackagesAfter('cli-core.ts')).toEqual([]);
  });

  it('is measured by a probe that sees them when a module loads them', () => {
    expect(heavyPackagesAfter('server/listen.ts')).toContain('fastify');
  });
});
