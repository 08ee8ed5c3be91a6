/**
 * Stores that sync with each other in a test: a "team server" (a whole Scandesk app listening on
 * 127.0.0.1, port 0) and "laptops" (in-process apps) with remotes pointing at it, and the sync
 * run's NDJSON answer read back as events and a summary.
 */
import type { AddressInfo } from 'node:net';
import { expect } from 'vitest';
import type { SyncEvent, SyncSummary } from '../../src/shared/api/sync';
import type { AppOptions } from '../../src/main/server/app';
import { createTestContext, type TestContext, type TestUser } from './test-app';

export interface ServedContext extends TestContext {
  /** The base URL it listens on. */
  url: string;
}

/** A test context whose app also listens on loopback, for another store to sync with. */
export async function startServed(options: Partial<Omit<AppOptions, 'db'>> = {}): Promise<ServedContext> {
  const ctx = await createTestContext(options);
  await ctx.app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = ctx.app.server.address() as AddressInfo;
  const host = `127.0.0.1:${port}`;
  // Once it listens, the server takes only its own address as Host (request guards).
  const request = ctx.request;
  ctx.request = ({ headers, ...rest }) => request({ ...rest, headers: { host, ...headers } });
  return Object.assign(ctx, { url: `http://${host}` });
}

/** Adds a remote through the API, as the CLI and the viewer do. */
export async function addRemote(
  laptop: TestContext,
  body: { name: string; url: string; token: string; [key: string]: unknown },
  as?: TestUser,
): Promise<void> {
  const response = await laptop.request({ method: 'POST', url: '/v1/remotes', payload: body, ...(as ? { as } : {}) });
  expect(response.statusCode, response.body).toBe(201);
}

export interface SyncAnswer {
  status: number;
  events: SyncEvent[];
  summary: SyncSummary;
}

/** Runs `POST /v1/remotes/:name/sync` to its end; the lines it streamed, and the summary (the last). */
export async function syncNow(laptop: TestContext, name: string): Promise<SyncAnswer> {
  const response = await laptop.request({ method: 'POST', url: `/v1/remotes/${name}/sync` });
  expect(response.statusCode, response.body).toBe(200);
  expect(response.headers['content-type']).toMatch(/^application\/x-ndjson/);
  const events = response.body
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as SyncEvent);
  const last = events[events.length - 1];
  if (last?.type !== 'summary') throw new Error(`the sync ended without a summary: ${response.body}`);
  return { status: response.statusCode, events, summary: last.summary };
}

/** A summary's counts, for one comparison. */
export const counts = (summary: SyncSummary) => ({
  outcome: summary.outcome,
  new: summary.pulled.new,
  changed: summary.pulled.changed,
  unchanged: summary.pulled.unchanged,
  sent: summary.pushed.sent,
  waiting: summary.pushed.waiting,
  gone: summary.gone,
});
