import { request, type IncomingMessage } from 'node:http';
import type { ScanSummary } from '../../src/shared/api/scans';
import type { Db } from '../../src/main/db/database';
import type { App } from '../../src/main/http/route-types';
import { buildApp } from '../../src/main/server/app';
import { createTestContext, type TestContext } from './test-app';

export interface StreamEvent {
  event: string;
  data: unknown;
}

export interface EventStreamClient {
  events: StreamEvent[];
  /** Resolves once an event satisfies `match`, failing after `timeoutMs`. */
  waitFor(match: (event: StreamEvent) => boolean, timeoutMs?: number): Promise<StreamEvent>;
  close(): void;
  response: IncomingMessage;
  /** Resolves when the server ends the stream (or the connection drops). */
  ended: Promise<void>;
}

/** The scans a `scans` event carries; none for any other event (`reload`). */
export const scansOf = (event: StreamEvent): ScanSummary[] =>
  event.event === 'scans' ? (event.data as { scans: ScanSummary[] }).scans : [];

/** Matches an event that carries the scan `id`. */
export const carries =
  (id: string) =>
  (event: StreamEvent): boolean =>
    scansOf(event).some((scan) => scan.id === id);

/** The ids of every scan a stream has heard of so far, in order. */
export const heardIds = (client: EventStreamClient): string[] => client.events.flatMap(scansOf).map((scan) => scan.id);

export interface ListeningApp {
  app: App;
  port: number;
}

/** An app on `store`'s database listening on a loopback port of its own (port 0: a free one). */
export async function listenOn(store: { db: Db; dataDir: string }): Promise<ListeningApp> {
  const app = await buildApp({ db: store.db, version: 'test', dataDir: store.dataDir });
  try {
    await app.listen({ host: '127.0.0.1', port: 0 });
  } catch (error) {
    await app.close();
    throw error;
  }
  return { app, port: (app.server.address() as { port: number }).port };
}

/**
 * A fresh test context whose store a second app also serves on a socket: `ctx.app` answers
 * requests in-process, but a stream needs a real connection.
 */
export interface StreamingContext {
  ctx: TestContext;
  port: number;
  /** Closes the listening app, then the context. */
  close(): Promise<void>;
}

export async function createStreamingContext(): Promise<StreamingContext> {
  const ctx = await createTestContext();
  let listening: ListeningApp;
  try {
    listening = await listenOn(ctx);
  } catch (error) {
    await ctx.close();
    throw error;
  }
  const { app, port } = listening;
  return {
    ctx,
    port,
    async close() {
      await app.close();
      await ctx.close();
    },
  };
}

/** A bearer token, or the `Cookie` header of a browser session. */
export type StreamCredential = string | { cookie: string };

const authHeaders = (credential: StreamCredential): Record<string, string> =>
  typeof credential === 'string' ? { authorization: `Bearer ${credential}` } : { cookie: credential.cookie };

/** Opens GET /v1/events on a listening server as a browser's EventSource would, parsing what comes. */
export function openEventStream(port: number, credential: StreamCredential): Promise<EventStreamClient> {
  return new Promise((resolve, reject) => {
    const events: StreamEvent[] = [];
    const waiters = new Set<() => void>();
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path: '/v1/events',
        headers: { ...authHeaders(credential), accept: 'text/event-stream' },
      },
      (response) => {
        if (response.statusCode !== 200) {
          let body = '';
          response.setEncoding('utf8');
          response.on('data', (chunk: string) => (body += chunk));
          response.on('end', () =>
            reject(
              Object.assign(new Error(`GET /v1/events answered ${response.statusCode}`), {
                status: response.statusCode,
                body,
              }),
            ),
          );
          return;
        }
        const ended = new Promise<void>((done) => response.once('close', done));
        response.setEncoding('utf8');
        let buffered = '';
        response.on('data', (chunk: string) => {
          buffered += chunk;
          let end: number;
          while ((end = buffered.indexOf('\n\n')) !== -1) {
            const block = buffered.slice(0, end);
            buffered = buffered.slice(end + 2);
            const fields = block.split('\n').filter((line) => !line.startsWith(':'));
            const event = fields.find((line) => line.startsWith('event: '))?.slice(7);
            const data = fields.find((line) => line.startsWith('data: '))?.slice(6);
            if (event && data) events.push({ event, data: JSON.parse(data) as unknown });
          }
          for (const wake of waiters) wake();
        });
        resolve({
          events,
          waitFor(match, timeoutMs = 5000) {
            return new Promise((found, fail) => {
              const check = () => {
                const hit = events.find(match);
                if (!hit) return;
                clearTimeout(timer);
                waiters.delete(check);
                found(hit);
              };
              const timer = setTimeout(() => {
                waiters.delete(check);
                fail(new Error(`no matching event within ${timeoutMs} ms; got ${JSON.stringify(events)}`));
              }, timeoutMs);
              waiters.add(check);
              check();
            });
          },
          close: () => req.destroy(),
          response,
          ended,
        });
      },
    );
    req.on('error', reject);
    req.end();
  });
}
