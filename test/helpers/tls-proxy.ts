import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request as httpRequest, type IncomingHttpHeaders, type OutgoingHttpHeaders } from 'node:http';
import { createServer, request as httpsRequest, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * What the proxy sends upstream as `Host`: nginx's default replaces it with the upstream address
 * (`proxy_set_header Host $proxy_host`), Caddy and `proxy_set_header Host $host` keep the browser's.
 */
export type HostMode = 'upstream' | 'browser';

export interface TlsProxy {
  /** The proxy's own address, `https://localhost:PORT`. */
  url: string;
  port: number;
  /** The self-signed certificate, for a client that verifies it. */
  ca: string;
  stop(): Promise<void>;
}

/**
 * A self-signed certificate for `localhost` and 127.0.0.1, made with openssl in a temporary
 * directory that is removed at once; valid one day.
 */
export function selfSignedCertificate(): { key: string; cert: string } {
  const dir = mkdtempSync(join(tmpdir(), 'scandesk-tls-'));
  try {
    const [key, cert] = [join(dir, 'key.pem'), join(dir, 'cert.pem')];
    execFileSync(
      'openssl',
      [
        ...['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'],
        ...['-keyout', key, '-out', cert, '-days', '1', '-subj', '/CN=localhost'],
        ...['-addext', 'subjectAltName=DNS:localhost,IP:127.0.0.1'],
      ],
      { stdio: 'ignore' },
    );
    return { key: readFileSync(key, 'utf8'), cert: readFileSync(cert, 'utf8') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * A TLS-terminating reverse proxy on 127.0.0.1, as a team server runs in front of `scandesk
 * serve`: it forwards every request to `upstream` over plain HTTP with X-Forwarded-Proto,
 * -Host and -For, and streams both bodies.
 */
export async function startTlsProxy(upstream: string, hostMode: HostMode): Promise<TlsProxy> {
  const { key, cert } = selfSignedCertificate();
  const target = new URL(upstream);
  const server: Server = createServer({ key, cert }, (incoming, outgoing) => {
    const headers: OutgoingHttpHeaders = {
      ...incoming.headers,
      'x-forwarded-proto': 'https',
      'x-forwarded-host': incoming.headers.host,
      'x-forwarded-for': incoming.socket.remoteAddress,
    };
    if (hostMode === 'upstream') headers.host = target.host;
    const forwarded = httpRequest(
      { host: target.hostname, port: target.port, method: incoming.method, path: incoming.url, headers },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      },
    );
    forwarded.on('error', () => outgoing.destroy());
    incoming.pipe(forwarded);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `https://localhost:${port}`,
    port,
    ca: cert,
    async stop() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

export interface ProxiedResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A request to the proxy over TLS that verifies its certificate, as a browser would. */
export function requestThroughProxy(
  proxy: TlsProxy,
  options: { method?: string; path: string; headers?: OutgoingHttpHeaders; body?: string },
): Promise<ProxiedResponse> {
  return new Promise((resolve, reject) => {
    const request = httpsRequest(
      {
        host: '127.0.0.1',
        servername: 'localhost',
        port: proxy.port,
        ca: proxy.ca,
        method: options.method ?? 'GET',
        path: options.path,
        headers: { host: `localhost:${proxy.port}`, ...options.headers },
      },
      (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (body += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body }));
      },
    );
    request.on('error', reject);
    request.end(options.body);
  });
}
