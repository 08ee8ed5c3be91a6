import { existsSync } from 'node:fs';
import { join, relative } from 'node:path';
import fastifyStatic from '@fastify/static';
import fp from 'fastify-plugin';
import { DomainError } from '../../domain-error';
import { sendError } from '../errors';
import { isApiPath, normalizedPath } from '../request-path';
import { cacheControlFor } from './cache-control';

export interface ViewerOptions {
  /** The built renderer to serve at `/`; without its index.html, `/` explains how to build it. */
  rendererDir?: string | null | undefined;
}

const NOT_BUILT =
  '<!doctype html><meta charset="utf-8"><title>Scandesk</title>' +
  '<p>The Scandesk viewer has not been built. Run <code>npm run build</code>, then restart the server. ' +
  'The API is at <code>/v1</code>.</p>';

/**
 * The viewer: the built renderer's files, and what no route answers. The viewer routes in the
 * browser, so a deep link such as /scans/scan_… is its index.html; a missing file (its name has
 * an extension) stays a 404 rather than HTML posing as a script, and so does any other path.
 * Not encapsulated: the not-found handler is the whole app's.
 *
 * Each file goes out as the build's brotli or gzip variant when the client accepts one and the
 * build wrote one (precompress.vite-plugin.ts), else as itself; hashed assets are cached for a
 * year, the rest revalidated by ETag (docs/contract/api.md#the-viewer).
 */
export const viewer = fp<ViewerOptions>(
  async (app, options) => {
    const rendererDir =
      options.rendererDir && existsSync(join(options.rendererDir, 'index.html')) ? options.rendererDir : null;

    app.setNotFoundHandler(async (request, reply) => {
      const path = normalizedPath(request.url);
      const refusal = app.methodNotAllowedFor(request.method, path);
      if (refusal) return sendError(reply, refusal);
      const isPage = !/\.[a-z0-9]+$/i.test(path);
      if (rendererDir && isPage && !isApiPath(path) && (request.method === 'GET' || request.method === 'HEAD')) {
        return reply.type('text/html; charset=utf-8').sendFile('index.html');
      }
      return sendError(reply, new DomainError('not_found', `no route ${request.method} ${path}`));
    });

    if (rendererDir) {
      await app.register(fastifyStatic, {
        root: rendererDir,
        prefix: '/',
        index: 'index.html',
        preCompressed: true,
        // Cache-Control is ours (below), not the library's `public, max-age=0`.
        cacheControl: false,
        setHeaders: (response, path) => {
          response.setHeader('Cache-Control', cacheControlFor(relative(rendererDir, path)));
          // Every file may be sent in another encoding: shared caches must key on the header.
          response.setHeader('Vary', 'Accept-Encoding');
        },
      });
      return;
    }
    app.get('/', { schema: { hide: true } }, async (_request, reply) =>
      reply.type('text/html; charset=utf-8').send(NOT_BUILT),
    );
  },
  { name: 'viewer', dependencies: ['method-not-allowed'] },
);
