import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { ServerResponse } from 'node:http';
import type { RouteDeps } from '../http/route-types';
import { visibleNotices } from './live.service';
import { ScanFeed } from './scan-feed';

/** A comment line this often keeps proxies and browsers from timing the stream out. */
const HEARTBEAT_MS = 20_000;
/** How soon a browser reconnects after the stream ends (a server restart, say). */
const RETRY_MS = 2000;

/**
 * GET /v1/events: server-sent events telling a viewer of scans as they are stored (submitted or
 * imported), only those it may see. `event: scans`, `data: {"scans": [ScanSummary…]}`. Nothing is
 * replayed: a viewer that reconnects refreshes what it shows.
 */
export const eventRoutes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, { db }) => {
  const open = new Set<ServerResponse>();
  // Streams never finish on their own; closing the server must not wait for them.
  app.addHook('preClose', async () => {
    for (const response of open) response.end();
  });

  app.get(
    '/v1/events',
    {
      schema: {
        tags: ['events'],
        summary: 'Server-sent events: scans as they are stored, those visible to the caller',
        description:
          'text/event-stream. Each `scans` event carries `{"scans": [ScanSummary, …]}`, newly stored scans the caller may see. ' +
          'Comment lines keep the connection alive; `retry` tells the browser to reconnect after 2 s. Events are not replayed.',
        produces: ['text/event-stream'],
        response: { 200: { description: 'An event stream (text/event-stream)', type: 'string' } },
      },
    },
    async (request, reply) => {
      const userId = request.user.id;
      reply.hijack();
      const response = reply.raw;
      response.writeHead(200, {
        'Content-Type': 'text/event-stream; charset=utf-8',
        'Cache-Control': 'no-store',
        'X-Content-Type-Options': 'nosniff',
        // Reverse proxies (nginx) would otherwise hold events back in their buffers.
        'X-Accel-Buffering': 'no',
      });
      response.write(`retry: ${RETRY_MS}\n: connected\n\n`);
      open.add(response);
      let sending = Promise.resolve();
      const unsubscribe = ScanFeed.of(db).subscribe((notices) => {
        // In order, one delivery at a time; a slow viewer does not reorder its own events.
        sending = sending.then(async () => {
          const scans = await visibleNotices(db, userId, notices).catch(() => []);
          if (scans.length > 0 && !response.writableEnded) {
            response.write(`event: scans\ndata: ${JSON.stringify({ scans })}\n\n`);
          }
        });
      });
      const heartbeat = setInterval(() => response.write(': keep-alive\n\n'), HEARTBEAT_MS);
      response.on('close', () => {
        clearInterval(heartbeat);
        unsubscribe();
        open.delete(response);
      });
    },
  );
};
