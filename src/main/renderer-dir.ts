import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The built renderer: `out/renderer` of the repository when running from source, `SCANDESK_RENDERER_DIR`
 * when set. Null when it has not been built.
 */
export function rendererDir(env: NodeJS.ProcessEnv = process.env): string | null {
  if (env.SCANDESK_RENDERER_DIR) return env.SCANDESK_RENDERER_DIR;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let depth = 0; depth < 4; depth += 1) {
    const candidate = join(dir, 'out', 'renderer', 'index.html');
    if (existsSync(candidate)) return dirname(candidate);
    dir = dirname(dir);
  }
  return null;
}
