/**
 * A pass-through HTTP proxy in the harness process that times every request it forwards, from
 * its first byte in to the last byte of the answer out. Put between a laptop and its remote, it
 * splits a sync's time into the remote's part (feed pages, scans answers, evidence exports) and
 * the rest, which is the laptop's own work (storing), without touching the code measured. A sync's
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
  /**
   * Wall time with at least one request under way, since the last reset: requests that overlap
   * (a pull fetching ahead while it stores) count once.
   */
  busyMs(): number;
  reset(): void;
  close(): Promise<void>;
}

export async function startTimingProxy(target: string): Promise<TimingProxy> {
  const upstream = new URL(target);
  let times = new Map<string, RouteTime>();
  let busy = 0;
  let open = 0;
  let busySince = 0;
  const server: Server = createServer((incoming, outgoing) => {
    const started = performance.now();
    if (open++ === 0) busySince = started;
    let closed = false;
    const finished = (): void => {
      if (closed) return;
      closed = true;
      if (--open === 0) busy += performance.now() - busySince;
    };
    outgoing.once('close', finished);
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
          finished();
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
    busyMs: () => busy + (open > 0 ? performance.now() - busySince : 0),
    reset: () => {
      times = new Map();
      busy = 0;
      busySince = performance.now();
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
