import { Agent, request, type ClientRequest } from 'node:http';
import { formatCount } from './lib/format';
import { MB } from './lib/memory';
import { createPolicyDataDir, ORGANIZATION_ID, YEAR_START } from './lib/policy-fixture';
import { result } from './lib/result';
import { startServe, type ServeChild } from './lib/serve-child';
import { defineBenchmark, type Result } from './lib/types';

const NAME = 'policy-impact';
const SIZES = { full: { scans: 20, entries: 100_000 }, quick: { scans: 20, entries: 2_000 } } as const;
const STALL_TARGET_MS = 100;
const MEMORY_TARGET_MB = 100;
const ABORT_AFTER_MS = 300;
/** How long /healthz is watched after the clients of two previews went away. */
const AFTER_ABORT_MS = 3_000;
const RANGE = {
  since: new Date(YEAR_START).toISOString(),
  until: new Date(YEAR_START + 365 * 86_400_000).toISOString(),
};
const DRAFT = {
  max_tokens_per_scan: null,
  max_tokens_per_request: 3_900,
  allowed_tools: null,
  blocked_tools: [],
  blocked_actions: ['tool.call'],
};
const EMPTY = { ...DRAFT, max_tokens_per_request: null, blocked_actions: [] };

interface Posted {
  req: ClientRequest;
  /** Status and the whole body; rejects when aborted. */
  answer: Promise<{ status: number; body: string }>;
}

function post(server: ServeChild, path: string, payload: unknown, agent?: Agent): Posted {
  const req = request(`${server.url}${path}`, {
    method: 'POST',
    agent: agent ?? false,
    headers: { Authorization: `Bearer ${server.token}`, 'Content-Type': 'application/json' },
  });
  const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
    req.on('response', (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
      response.on('error', reject);
    });
    req.on('error', reject);
  });
  answer.catch(() => {});
  req.end(JSON.stringify(payload));
  return { req, answer };
}

const policyPath = (what: 'preview' | 'reevaluate'): string => `/v1/organizations/${ORGANIZATION_ID}/policy/${what}`;

/** Sequential GETs of `path` while `running()` holds (at least one): the slowest, in ms, and how many. */
async function watch(server: ServeChild, path: string, running: () => boolean): Promise<{ max: number; n: number }> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  let max = 0;
  let n = 0;
  try {
    do {
      const started = performance.now();
      await new Promise<void>((resolve, reject) => {
        const req = request(
          `${server.url}${path}`,
          { agent, headers: { Authorization: `Bearer ${server.token}` } },
          (r) => {
            r.resume();
            r.on('end', resolve);
          },
        );
        req.on('error', reject);
        req.end();
      });
      max = Math.max(max, performance.now() - started);
      n += 1;
    } while (running());
  } finally {
    agent.destroy();
  }
  return { max, n };
}

/** Runs `work` while /healthz is watched. */
async function withHealthz<T>(
  server: ServeChild,
  work: () => Promise<T>,
): Promise<{ value: T; max: number; n: number }> {
  let done = false;
  const running = work().finally(() => (done = true));
  const health = await watch(server, '/healthz', () => !done);
  return { value: await running, ...health };
}

const lastLine = (body: string): Record<string, unknown> =>
  JSON.parse(body.trim().split('\n').at(-1)!) as Record<string, unknown>;

export default defineBenchmark({
  name: NAME,
  description:
    'POST /v1/organizations/:id/policy/preview and /reevaluate over a year of 20 long-timeline scans: /healthz stall and server memory during them, after clients abort, and a submit during re-evaluation',
  async run(context) {
    const { scans, entries } = context.quick ? SIZES.quick : SIZES.full;
    const dataDir = context.scratch.tempDir('policy');
    context.log(`building ${scans} scans × ${formatCount(entries)} entries over a year`);
    const started = performance.now();
    await createPolicyDataDir(dataDir, scans, entries);
    context.log(`  built in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    const size = `${scans} scans × ${formatCount(entries)} entries`;
    const results: Result[] = [];
    const row = (
      label: string,
      metric: string,
      value: number,
      target?: { limit: number; unit: string },
      note?: string,
      baseline?: { label: string; value: number },
    ) =>
      results.push(
        result({
          benchmark: NAME,
          label,
          metric,
          value,
          baseline: baseline ?? null,
          target: target ? { kind: 'max', ...target } : null,
          note,
        }),
      );

    const server = await startServe(context.scratch, dataDir);
    try {
      context.log('preview over the year');
      const preview = await server.measure(() =>
        withHealthz(server, async () => {
          const { status, body } = await post(server, policyPath('preview'), { policy: DRAFT, ...RANGE }).answer;
          if (status !== 200 || !lastLine(body).result)
            throw new Error(`preview answered ${status}: ${body.slice(-300)}`);
          return lastLine(body).result as { policy: { violations: number } };
        }),
      );
      // This machine's own hiccups: the same watch of an idle server, as long (up to 10 s).
      const idleFor = Math.min(preview.wallMs, 10_000);
      const idleAt = performance.now();
      const idle = await watch(server, '/healthz', () => performance.now() - idleAt < idleFor);
      const idleBaseline = {
        label: `idle server, /healthz slowest over ${(idleFor / 1000).toFixed(1)} s`,
        value: idle.max,
      };
      row(
        `preview, ${size}: /healthz slowest`,
        'ms',
        preview.value.max,
        { limit: STALL_TARGET_MS, unit: 'ms' },
        `${preview.value.n} sequential GETs during it`,
        idleBaseline,
      );
      row(
        `preview, ${size}: server memory growth`,
        'MB',
        (preview.peakRss - preview.idleRss) / MB,
        { limit: MEMORY_TARGET_MB, unit: 'MB' },
        `peak ${(preview.peakRss / MB).toFixed(0)} MB over idle ${(preview.idleRss / MB).toFixed(0)} MB (${preview.memoryMethod})`,
      );
      row(
        `preview, ${size}: wall time`,
        's',
        preview.wallMs / 1000,
        undefined,
        `${formatCount(preview.value.value.policy.violations)} violations tallied`,
      );

      context.log(`two previews whose clients go away after ${ABORT_AFTER_MS} ms`);
      const aborted = await server.measure(async () => {
        const runs = [0, 1].map(() => post(server, policyPath('preview'), { policy: DRAFT, ...RANGE }));
        await new Promise((resolve) => setTimeout(resolve, ABORT_AFTER_MS));
        for (const run of runs) run.req.destroy();
        const abortedAt = performance.now();
        // The organization is free again once a new run is accepted (409 until then).
        const free = (async () => {
          while (performance.now() - abortedAt < 60_000) {
            const probe = await post(server, policyPath('preview'), { policy: EMPTY, ...RANGE }).answer;
            if (probe.status === 200) return performance.now() - abortedAt;
            await new Promise((resolve) => setTimeout(resolve, 20));
          }
          return Number.NaN;
        })();
        const health = await watch(server, '/healthz', () => performance.now() - abortedAt < AFTER_ABORT_MS);
        const freeMs = await free;
        return { health, freeMs };
      });
      row(
        `2 previews aborted after ${ABORT_AFTER_MS} ms: /healthz slowest after`,
        'ms',
        aborted.value.health.max,
        { limit: STALL_TARGET_MS, unit: 'ms' },
        `${aborted.value.health.n} GETs in the ${AFTER_ABORT_MS / 1000} s after the abort`,
        idleBaseline,
      );
      row(
        `2 previews aborted after ${ABORT_AFTER_MS} ms: server memory growth`,
        'MB',
        (aborted.peakRss - aborted.idleRss) / MB,
        { limit: MEMORY_TARGET_MB, unit: 'MB' },
      );
      row(
        `2 previews aborted after ${ABORT_AFTER_MS} ms: until the next run is accepted`,
        'ms',
        aborted.value.freeMs,
        undefined,
        'from the abort, probing every 20 ms',
      );

      context.log('re-evaluation with a submit every so often');
      const put = await new Promise<number>((resolve, reject) => {
        const req = request(
          `${server.url}/v1/organizations/${ORGANIZATION_ID}/policy`,
          {
            method: 'PUT',
            agent: false,
            headers: { Authorization: `Bearer ${server.token}`, 'Content-Type': 'application/json' },
          },
          (r) => {
            r.resume();
            r.on('end', () => resolve(r.statusCode ?? 0));
          },
        );
        req.on('error', reject);
        req.end(JSON.stringify(DRAFT));
      });
      if (put !== 200) throw new Error(`PUT policy answered ${put}`);
      let slowestSubmit = 0;
      let submits = 0;
      const reevaluation = await server.measure(() =>
        withHealthz(server, async () => {
          const run = post(server, policyPath('reevaluate'), RANGE);
          let done = false;
          void run.answer.finally(() => (done = true));
          const agent = new Agent({ keepAlive: true, maxSockets: 1 });
          while (!done) {
            const at = performance.now();
            const submitted = await post(server, '/v1/scans', { tool: 'cli', action: 'edit', tokens: 1 }, agent).answer;
            if (submitted.status !== 201) throw new Error(`submit answered ${submitted.status}`);
            slowestSubmit = Math.max(slowestSubmit, performance.now() - at);
            submits += 1;
            await new Promise((resolve) => setTimeout(resolve, 10));
          }
          agent.destroy();
          const { status, body } = await run.answer;
          if (status !== 200 || !lastLine(body).result)
            throw new Error(`reevaluate answered ${status}: ${body.slice(-300)}`);
          return lastLine(body).result as { changed_scans: number; policy: { violations: number } };
        }),
      );
      row(
        `re-evaluate, ${size}: /healthz slowest`,
        'ms',
        reevaluation.value.max,
        undefined,
        `${reevaluation.value.n} GETs; ${formatCount(reevaluation.value.value.policy.violations)} violations written`,
        idleBaseline,
      );
      row(
        `re-evaluate, ${size}: slowest submit during it`,
        'ms',
        slowestSubmit,
        undefined,
        `${submits} submits, one every 10 ms`,
      );
      row(`re-evaluate, ${size}: server memory growth`, 'MB', (reevaluation.peakRss - reevaluation.idleRss) / MB);
      row(`re-evaluate, ${size}: wall time`, 's', reevaluation.wallMs / 1000);
    } finally {
      await server.stop();
    }
    return results;
  },
});
