import { Agent, request } from 'node:http';

/** Below this, a p99 is just the maximum of too few samples. */
const MIN_SAMPLES = 100;

/** Nearest-rank percentile of ascending `sorted` values: always one of the measured samples. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) throw new Error('no samples');
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1]!;
}

export interface LatencyRun {
  p50: number;
  p99: number;
  /** How many requests were measured: fewer than asked when the time budget ran out. */
  samples: number;
  /** The body of the last answer, for checking that two servers answered alike. */
  lastBody: string;
}

/**
 * GETs `url` (or the URL for the n-th request) sequentially, `warmup` times unmeasured and then `requests` times, each timed from
 * sending to the last byte of the body, in ms. One kept-alive connection: what is measured is the
 * server's answer, not TCP set-up. Stops early once `budgetMs` of measuring is spent (a query of
 * half a second would otherwise take minutes), but never below `MIN_SAMPLES`. Fails on any answer
 * but 200.
 */
export async function sequentialGets(
  url: string | ((request: number) => string),
  token: string,
  warmup: number,
  requests: number,
  budgetMs = Number.POSITIVE_INFINITY,
): Promise<LatencyRun> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  let sent = 0;
  const get = (): Promise<string> =>
    new Promise((resolve, reject) => {
      const target = typeof url === 'string' ? url : url(sent);
      sent += 1;
      const req = request(target, { agent, headers: { Authorization: `Bearer ${token}` } }, (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (body += chunk));
        response.on('end', () =>
          response.statusCode === 200
            ? resolve(body)
            : reject(new Error(`GET ${target}: ${response.statusCode} ${body}`)),
        );
        response.on('error', reject);
      });
      req.on('error', reject);
      req.end();
    });
  try {
    let lastBody = '';
    for (let i = 0; i < warmup; i++) lastBody = await get();
    const samples: number[] = [];
    const deadline = performance.now() + budgetMs;
    for (let i = 0; i < requests; i++) {
      if (samples.length >= MIN_SAMPLES && performance.now() > deadline) break;
      const started = performance.now();
      lastBody = await get();
      samples.push(performance.now() - started);
    }
    samples.sort((a, b) => a - b);
    return { p50: percentile(samples, 50), p99: percentile(samples, 99), samples: samples.length, lastBody };
  } finally {
    agent.destroy();
  }
}
