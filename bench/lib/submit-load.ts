/** The submit load both submit benchmarks (SQLite and PostgreSQL) put on a server. */
import autocannon from 'autocannon';
import { postJson } from './http';

export const CONNECTIONS = 32;
export const TIMELINE_ENTRIES = 10;
// Unmeasured load first: JIT, the statement caches and the database's page cache warm up on both
// sides. The real server has far more code for the JIT to settle than a bare one: after 1 s it
// still ran at 75–85 % of the pace it reached a few seconds later, while the lean floor was there.
export const WARMUP_S = 3;

const ACTIONS = ['chat.completion', 'code.completion', 'tool.call', 'file.read', 'web.search'];

/** One submission with a 10-entry timeline; every request sends the same body (ids are the server's). */
function submission(): { tool: string; action: string; tokens: number; timeline: unknown[] } {
  const start = Date.UTC(2026, 10, 20, 12);
  const timeline = Array.from({ length: TIMELINE_ENTRIES }, (_, i) => ({
    timestamp: new Date(start + i * 1500).toISOString(),
    action: ACTIONS[i % ACTIONS.length]!,
    tokens: 100 + i * 37,
  }));
  const tokens = timeline.reduce((sum, entry) => sum + entry.tokens, 0);
  return { tool: 'Claude Code', action: 'chat.completion', tokens, timeline };
}

export interface Load {
  requestsPerSecond: number;
  p99: number;
  completed: number;
}

interface Target {
  url: string;
  token: string;
}

export function loadOptions({ url, token }: Target, connections: number) {
  return {
    url: `${url}/v1/scans`,
    connections,
    method: 'POST' as const,
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(submission()),
  };
}

/** Submits once (checked), then loads the server unmeasured for `seconds`. */
export async function warmUp(target: Target, connections = CONNECTIONS, seconds = WARMUP_S): Promise<void> {
  const check = await postJson(`${target.url}/v1/scans`, target.token, submission());
  if (check.status !== 201) throw new Error(`POST /v1/scans answered ${check.status}: ${check.body}`);
  await autocannon({ ...loadOptions(target, connections), duration: seconds });
}

/** Loads a warmed-up server for `durationS` from `connections`; every answer must be a 2xx. */
export async function measureLoad(target: Target, durationS: number, connections = CONNECTIONS): Promise<Load> {
  const run = await autocannon({ ...loadOptions(target, connections), duration: durationS });
  if (run.errors > 0 || run.non2xx > 0 || run['2xx'] === 0) {
    throw new Error(
      `${target.url}: ${run['2xx']} answered 2xx, ${run.non2xx} did not, ${run.errors} connection errors`,
    );
  }
  return { requestsPerSecond: run['2xx'] / run.duration, p99: run.latency.p99, completed: run['2xx'] };
}

/** Warms up, then loads the server for `durationS` from `connections`. */
export async function load(url: string, token: string, durationS: number, connections = CONNECTIONS): Promise<Load> {
  await warmUp({ url, token }, connections);
  return measureLoad({ url, token }, durationS, connections);
}
