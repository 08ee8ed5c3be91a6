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

/** GETs over one kept-alive connection, each answer's body; any answer but 200 rejects. */
export function keptAliveGets(token: string): { get: (url: string) => Promise<string>; close: () => void } {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const get = (target: string): Promise<string> =>
    new Promise((resolve, reject) => {
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
  return { get, close: () => agent.destroy() };
}

const summary = (samples: number[], lastBody: string): LatencyRun => {
  samples.sort((a, b) => a - b);
  return { p50: percentile(samples, 50), p99: percentile(samples, 99), samples: samples.length, lastBody };
};

/** Work timed between the measured requests, so that both see the same seconds of the machine. */
export interface Alongside {
  /** The warm-up requests' times (ms), once, before the first measured request. */
  warmedUp(times: readonly number[]): void;
  /** After each measured request, outside its time. */
  between(): void;
}

/**
 * GETs `url` (or the URL for the n-th request) sequentially, `warmup` times unmeasured and then `requests` times, each timed from
 * sending to the last byte of the body, in ms. One kept-alive connection: what is measured is the
 * server's answer, not TCP set-up. Stops early once `budgetMs` of measuring is spent (a query of
 * half a second would otherwise take minutes), but never below `MIN_SAMPLES`. Fails on any answer
 * but 200. `alongside` runs between the measured requests.
 */
export async function sequentialGets(
  url: string | ((request: number) => string),
  token: string,
  warmup: number,
  requests: number,
  budgetMs = Number.POSITIVE_INFINITY,
  alongside?: Alongside,
): Promise<LatencyRun> {
  const { get: getUrl, close } = keptAliveGets(token);
  let sent = 0;
  const get = (): Promise<string> => getUrl(typeof url === 'string' ? url : url(sent++));
  try {
    let lastBody = '';
    const warmups: number[] = [];
    for (let i = 0; i < warmup; i++) {
      const started = performance.now();
      lastBody = await get();
      warmups.push(performance.now() - started);
    }
    alongside?.warmedUp(warmups);
    const samples: number[] = [];
    const deadline = performance.now() + budgetMs;
    for (let i = 0; i < requests; i++) {
      if (samples.length >= MIN_SAMPLES && performance.now() > deadline) break;
      const started = performance.now();
      lastBody = await get();
      samples.push(performance.now() - started);
      alongside?.between();
    }
    return summary(samples, lastBody);
  } finally {
    close();
  }
}

/**
 * GETs `url` one after another for as long as the work `start` starts runs, each timed as in
 * sequentialGets (after `warmup` unmeasured ones before it): how long a request waits while the
 * server is busy with something else. Resolves with the work's value.
 */
export async function getsDuring<T>(
  url: string,
  token: string,
  start: () => Promise<T>,
  warmup = 20,
): Promise<{ value: T; latency: LatencyRun }> {
  const { get, close } = keptAliveGets(token);
  for (let i = 0; i < warmup; i++) await get(url);
  let running = true;
  const done = start().finally(() => (running = false));
  const samples: number[] = [];
  let lastBody = '';
  try {
    while (running) {
      const started = performance.now();
      lastBody = await get(url);
      samples.push(performance.now() - started);
    }
    return { value: await done, latency: summary(samples, lastBody) };
  } finally {
    close();
  }
}
