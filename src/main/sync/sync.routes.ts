import { PassThrough } from 'node:stream';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { RemoteParams } from '../../shared/api/remotes';
import { forbidden, notFound } from '../domain-error';
import type { ImportLimits } from '../evidence/import/import-limits';
import type { RouteDeps } from '../http/route-types';
import type { RemoteTimeouts } from './client/remote-client';
import { findRemoteByName } from './remotes/remotes.repository';
import { SyncRuns } from './sync-runs';

export interface SyncRouteDeps extends RouteDeps {
  /** Where the remotes' token files are; without it (some tests) a sync cannot run. */
  dataDir?: string | undefined;
  /** Tests make packages and timeouts small. */
  limits?: ImportLimits | undefined;
  timeouts?: Partial<RemoteTimeouts> | undefined;
}

const tags = ['sync'];

// The sync run's one route (docs/contract/api.md#sync-runs): it starts or joins the remote's run
// and streams what the run reports, line by line, until its summary.

export const syncRoutes: FastifyPluginAsyncTypebox<SyncRouteDeps> = async (app, { db, dataDir, limits, timeouts }) => {
  app.post(
    '/v1/remotes/:name/sync',
    {
      schema: {
        tags,
        summary:
          'Sync with a remote now: pull, then push; progress as NDJSON lines, then the summary (workspace owner only)',
        description:
          'Answers 200 at once and streams one `SyncEvent` per line (`application/x-ndjson`): `progress` lines, then ' +
          "one `summary` line, also saved as the remote's `last_sync`. A second request while a run of the same remote " +
          'goes on in this server joins it; a run in another server process sharing the store is 409 `conflict`. The run ' +
          'goes on if the caller disconnects. The outcome is in the summary (`done`, `partial`, `unreachable`), never ' +
          'in the status.',
        params: RemoteParams,
        produces: ['application/x-ndjson'],
        response: {
          200: {
            description: 'application/x-ndjson: `SyncEvent` lines (src/shared/api/sync.ts), the last a `summary`',
            type: 'string',
          },
        },
      },
    },
    async (request, reply) => {
      if (!request.user.is_workspace_owner) throw forbidden('only the workspace owner may sync remotes');
      const remote = await findRemoteByName(db, request.params.name);
      if (!remote) throw notFound('remote');
      if (dataDir === undefined) throw new Error("syncing needs the data directory (the remotes' token files)");
      const run = await SyncRuns.of(db).join({ db, dataDir, limits, timeouts }, remote);
      const stream = new PassThrough();
      const unsubscribe = run.subscribe((event) => {
        stream.write(`${JSON.stringify(event)}\n`);
        if (event.type === 'summary') stream.end();
      });
      // A caller that goes away stops watching; the run goes on. (The response's close, not the
      // request's: a request closes once its body was read.)
      reply.raw.once('close', () => {
        unsubscribe();
        stream.destroy();
      });
      // A stream is sent as it is, never through the response schema's serializer.
      return reply.type('application/x-ndjson; charset=utf-8').send(stream as unknown as string);
    },
  );
};
