import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { OrganizationParams } from '../../shared/api/organizations';
import { IMPACT_MAX_DAYS, Policy, PolicyPreviewBody, ReevaluateBody } from '../../shared/api/policies';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { progressStream, type ProgressReport } from '../http/progress-stream';
import type { RouteDeps } from '../http/route-types';
import { readPolicy, replacePolicy } from './policies.service';
import { beginImpactRun, previewPolicy, reevaluate, type ImpactRun } from './policy-impact.service';

const NDJSON = 'application/x-ndjson; charset=utf-8';
const progressResponse = {
  200: {
    description:
      'application/x-ndjson: `{"progress":{"done","total"}}` lines, then `{"result": PolicyComparison}` ' +
      '(or `{"error": Error}` when it fails after answering began)',
    type: 'string',
  },
};

/** What the range of a preview or re-evaluation must be, which no schema keyword can say. */
const RANGE_RULES = `Rules the schema cannot state: \`until\` must be after \`since\`, at most ${IMPACT_MAX_DAYS} days after it; otherwise 400 naming \`until\`.`;
/** What holds for every run, whichever route starts it. */
const RUN_RULES =
  'One preview or re-evaluation per organization runs at a time, across every server on the store: another is 409 (conflict) until it ends. ' +
  'A client that disconnects stops the run at its next step; a re-evaluation stopped so, or failing, writes nothing.';

const tags = ['policies'];

export const policyRoutes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, { db }) => {
  app.get(
    '/v1/organizations/:id/policy',
    { schema: { tags, summary: "The organization's policy", params: OrganizationParams, response: { 200: Policy } } },
    async (request) => readPolicy(db, request.params.id, request.user.id),
  );

  app.put(
    '/v1/organizations/:id/policy',
    {
      schema: {
        tags,
        summary: 'Replace the policy (owner, admin); applies to scans submitted from now on',
        params: OrganizationParams,
        body: Policy,
        response: { 200: Policy },
      },
    },
    async (request) => replacePolicy(db, request.params.id, request.user.id, request.body),
  );

  /**
   * Refusals first, as ordinary errors (a run of the organization already going is a 409); then
   * the work answers NDJSON progress and its result. A client that goes away stops the work at
   * its next step.
   */
  const answerWithProgress = async (
    request: Pick<FastifyRequest, 'user' | 'log'> & { params: { id: string } },
    range: { since: string; until: string },
    kind: 'preview' | 'reevaluate',
    reply: FastifyReply,
    work: (run: ImpactRun, progress: ProgressReport, signal: AbortSignal) => Promise<unknown>,
  ) => {
    const run = await beginImpactRun(db, request.params.id, request.user.id, range, kind);
    const gone = new AbortController();
    const leave = () => gone.abort(new Error('the client went away'));
    reply.raw.once('close', () => {
      if (!reply.raw.writableFinished) leave();
    });
    // Gone already while the run was being claimed: its close event has passed.
    if (reply.raw.socket?.destroyed) leave();
    const stream = progressStream(
      (progress) => work(run, progress, gone.signal),
      (error) => {
        if (gone.signal.aborted) request.log.info('policy impact run stopped: the client went away');
        else request.log.error(error);
      },
    );
    return reply.type(NDJSON).send(stream);
  };

  app.post(
    '/v1/organizations/:id/policy/preview',
    {
      schema: {
        tags,
        summary:
          "What a draft policy would flag over the organization's stored scans of a range (owner, admin); writes nothing",
        description: `${RANGE_RULES} ${RUN_RULES}`,
        params: OrganizationParams,
        body: PolicyPreviewBody,
        produces: ['application/x-ndjson'],
        response: progressResponse,
      },
    },
    (request, reply) =>
      answerWithProgress(request, request.body, 'preview', reply, (run, progress, signal) =>
        previewPolicy(db, run, request.body, progress, signal),
      ),
  );

  app.post(
    '/v1/organizations/:id/policy/reevaluate',
    {
      schema: {
        tags,
        summary:
          "Apply the saved policy to the organization's submitted scans of a range, all or nothing (owner, admin); imported scans keep their package's violations",
        description: `${RANGE_RULES} ${RUN_RULES}`,
        params: OrganizationParams,
        body: ReevaluateBody,
        produces: ['application/x-ndjson'],
        response: progressResponse,
      },
    },
    (request, reply) =>
      answerWithProgress(request, request.body, 'reevaluate', reply, (run, progress, signal) =>
        reevaluate(db, run, progress, signal),
      ),
  );
};
