import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Plugin } from 'vite';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);
// Quality 10, not the maximum 11: on this bundle 11 saved 2 % more bytes for three times the build
// time, which every build (CI's browser tier included) would pay.
const BROTLI_QUALITY = 10;

// Text formats gain from compression; other images and fonts are compressed already.
const COMPRESSIBLE = /\.(?:html|js|mjs|css|svg|json|txt|ico)$/i;

/**
 * Writes `NAME.br` and `NAME.gz` beside every compressible file of the built renderer, once per
 * build, so that the server sends them with no work per request (viewer.plugin.ts picks one by
 * `Accept-Encoding`). A variant that would not be smaller is not written: the file itself goes.
 */
export function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'scandesk-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = config.build.outDir;
    },
    async closeBundle() {
      const files = await readdir(outDir, { recursive: true, withFileTypes: true });
      await Promise.all(
        files
          .filter((file) => file.isFile() && COMPRESSIBLE.test(file.name))
          .map((file) => compressBeside(join(file.parentPath, file.name))),
      );
    },
  };
}

async function compressBeside(path: string): Promise<void> {
  const content = await readFile(path);
  const [br, gz] = await Promise.all([
    brotli(content, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY,
        [constants.BROTLI_PARAM_SIZE_HINT]: content.length,
      },
    }),
    gzipAsync(content, { level: constants.Z_BEST_COMPRESSION }),
  ]);
  if (br.length < content.length) await writeFile(`${path}.br`, br);
  if (gz.length < content.length) await writeFile(`${path}.gz`, gz);
}
