/**
 * A pass-through HTTP proxy in the harness process that times every request it forwards, from
 * its first byte in to the last byte of the answer out. Put between a laptop and its remote, it
 * splits a sync's time into the remote's part (feed pages, evidence exports) and the rest, which
 * is the laptop's own work (storing packages), without touching the code measured. A sync's
 * progress events cannot: a pull reports once per stored page, after both halves.
 */
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RouteTime {
  requests: number;
  ms: number;
  bytes: number;
}

export interface TimingProxy {
  url: string;
  /** Time per `METHOD /path` (query left out) since the last reset. */
  times(): ReadonlyMap<string, RouteTime>;
  reset(): void;
  close(): Promise<void>;
}

export async function startTimingProxy(target: string): Promise<TimingProxy> {
  const upstream = new URL(target);
  let times = new Map<string, RouteTime>();
  const server: Server = createServer((incoming, outgoing) => {
    const started = performance.now();
    const route = `${incoming.method} ${(incoming.url ?? '/').split('?')[0]}`;
    let bytes = 0;
    const forward = request(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: incoming.method,
        path: incoming.url,
        headers: { ...incoming.headers, host: upstream.host },
      },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.on('data', (chunk: Buffer) => (bytes += chunk.length));
        answer.pipe(outgoing);
        answer.on('end', () => {
          const time = times.get(route) ?? { requests: 0, ms: 0, bytes: 0 };
          times.set(route, {
            requests: time.requests + 1,
            ms: time.ms + performance.now() - started,
            bytes: time.bytes + bytes,
          });
        });
      },
    );
    forward.on('error', () => outgoing.destroy());
    incoming.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    times: () => times,
    reset: () => (times = new Map()),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
