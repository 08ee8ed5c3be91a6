import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { RouteDeps } from '../http/route-types';
import { LiveStreams } from './live-streams';
import { greeting } from './sse-events';
import type { SseStream } from './sse-stream';
import { MAX_STREAMS_PER_USER } from './stream-limits';

/** How soon a browser reconnects after the stream ends (a server restart, say). */
const RETRY_MS = 2000;

/**
 * GET /v1/events: server-sent events telling a viewer of scans as they are stored (submitted or
 * imported), only those it may see. `event: scans`, `data: {"scans": [ScanSummary…]}`. Nothing is
 * replayed: a viewer that reconnects refreshes what it shows. The stream ends with the token or
 * session that opened it; a viewer too far behind is sent `event: reload` and closed.
 */
export const eventRoutes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, { db }) => {
  const open = new Set<SseStream>();
  // Streams never finish on their own; closing the server must not wait for them.
  app.addHook('preClose', async () => {
    for (const stream of open) stream.close();
  });

  app.get(
    '/v1/events',
    {
      schema: {
        tags: ['events'],
        summary: 'Server-sent events: scans as they are stored, those visible to the caller',
        description:
          'text/event-stream. Each `scans` event carries `{"scans": [ScanSummary, …]}`, newly stored scans the caller may see. ' +
          'Comment lines keep the connection alive; `retry` tells the browser to reconnect after 2 s. Events are not replayed. ' +
          '`reload` (data `{}`) means events were dropped for a viewer too far behind: refetch, the stream then ends. ' +
          'The stream ends when the token or session that opened it ends. ' +
          `At most ${MAX_STREAMS_PER_USER} streams per user are open at once (409 beyond).`,
        produces: ['text/event-stream'],
        response: { 200: { description: 'An event stream (text/event-stream)', type: 'string' } },
      },
    },
    async (request, reply) => {
      const response = reply.raw;
      const stream = LiveStreams.of(db).open(request.user.id, request.credential, response);
      reply.hijack();
      response.writeHead(200, {
        'Content-Type': 'text/event-stream; charset=utf-8',
        'Cache-Control': 'no-store',
        'X-Content-Type-Options': 'nosniff',
        // Reverse proxies (nginx) would otherwise hold events back in their buffers.
        'X-Accel-Buffering': 'no',
      });
      stream.send(greeting(RETRY_MS));
      open.add(stream);
      response.on('close', () => open.delete(stream));
    },
  );
};
