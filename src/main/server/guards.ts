import type { FastifyRequest } from 'fastify';
import { forbidden } from '../http/domain-error';

export interface GuardOptions {
  /** Extra host names accepted besides the loopback names (`--allow-host`). */
  allowHosts: readonly string[];
  /** The port the server listens on; null when it does not (in-process tests), then any port. */
  port: () => number | null;
  /** `--trust-proxy`: a proxy on loopback tells, in X-Forwarded-Proto/-Host, where the browser went. */
  trustProxy: boolean;
}

/** What the guard looks at, as the request's headers and socket give it. */
export interface OriginFacts {
  host: string | undefined;
  origin: string | undefined;
  secFetchSite: string | undefined;
  /** The far end of the connection. */
  peer: string | undefined;
  forwardedProto: string | undefined;
  forwardedHost: string | undefined;
}

const LOOPBACK_NAMES = ['127.0.0.1', 'localhost', '[::1]'];
const DEFAULT_PORTS: Readonly<Record<string, number>> = { http: 80, https: 443 };

interface HostPort {
  name: string;
  port: number;
}

function splitHost(host: string, defaultPort: number): HostPort | null {
  const match = /^(\[[0-9a-f:.]+\]|[^:[\]]+)(?::(\d{1,5}))?$/i.exec(host.trim());
  if (!match?.[1]) return null;
  return { name: match[1].toLowerCase(), port: match[2] ? Number(match[2]) : defaultPort };
}

/** An Origin header as scheme, name and port (the scheme's default when it names none). */
function splitOrigin(origin: string): (HostPort & { scheme: string }) | null {
  const match = /^([a-z][a-z0-9+.-]*):\/\/([^/?#]+)$/i.exec(origin);
  const scheme = match?.[1]?.toLowerCase();
  const port = scheme === undefined ? undefined : DEFAULT_PORTS[scheme];
  if (!match?.[2] || port === undefined) return null;
  const host = splitHost(match[2], port);
  return host && { scheme: scheme!, ...host };
}

/** As proxies append to X-Forwarded-*, the last entry is the one the proxy next to us added (Fastify reads it so too). */
const lastEntry = (value: string): string => value.slice(value.lastIndexOf(',') + 1).trim();

/** 127.0.0.0/8 and ::1, IPv4-mapped included: the addresses `trustProxy: 'loopback'` believes. */
export function isLoopbackAddress(address: string | undefined): boolean {
  if (!address) return false;
  const v4 = address.toLowerCase().replace(/^::ffff:/, '');
  return v4 === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(v4);
}

/**
 * Why the request must be refused, or null: a Host other than our own (DNS rebinding) or a
 * cross-site request (CSRF) — SPEC.md §2. Behind a trusted proxy the browser's origin is the
 * proxy's (https, its host and port), which only the proxy's X-Forwarded-Proto/-Host tell; the
 * names allowed stay the same, and the Host the browser sent must be one of them too, so a
 * rebound name cannot pass by sending its own X-Forwarded-Host. Pure: no I/O.
 */
export function originRefusal(
  facts: OriginFacts,
  options: { allowHosts: readonly string[]; port: number | null; trustProxy: boolean },
): string | null {
  const names = [...LOOPBACK_NAMES, ...options.allowHosts.map((name) => name.toLowerCase())];
  const refusedHost = `requests for host "${facts.host ?? ''}" are refused; use http://127.0.0.1:${options.port ?? '<port>'}`;
  const proxied =
    options.trustProxy &&
    isLoopbackAddress(facts.peer) &&
    (facts.forwardedProto !== undefined || facts.forwardedHost !== undefined);

  const host = splitHost(facts.host ?? '', DEFAULT_PORTS.http!);
  if (!host || !names.includes(host.name)) return refusedHost;
  // The proxy listens on a port of its own, which the Host it passes on may carry.
  if (!proxied && options.port !== null && host.port !== options.port) return refusedHost;

  let expected: HostPort & { scheme: string } = { scheme: 'http', ...host };
  if (proxied) {
    const scheme = facts.forwardedProto === undefined ? 'http' : lastEntry(facts.forwardedProto).toLowerCase();
    const port = DEFAULT_PORTS[scheme];
    if (port === undefined) return `the proxy's X-Forwarded-Proto "${scheme}" is neither http nor https`;
    const publicHost = splitHost(
      facts.forwardedHost === undefined ? facts.host! : lastEntry(facts.forwardedHost),
      port,
    );
    if (!publicHost || !names.includes(publicHost.name)) {
      return `requests for host "${facts.forwardedHost}" are refused; name it with --allow-host`;
    }
    expected = { scheme, ...publicHost };
  }

  if (facts.origin !== undefined) {
    const origin = splitOrigin(facts.origin);
    const same =
      origin !== null &&
      origin.scheme === expected.scheme &&
      origin.name === expected.name &&
      origin.port === expected.port;
    if (!same) return 'cross-site requests are refused';
  }
  if (facts.secFetchSite === 'cross-site') return 'cross-site requests are refused';
  return null;
}

const header = (value: string | string[] | undefined): string | undefined => (Array.isArray(value) ? value[0] : value);

/** Refuses, with 403, what originRefusal refuses. */
export function checkRequestOrigin(request: FastifyRequest, options: GuardOptions): void {
  const { headers } = request;
  const refusal = originRefusal(
    {
      host: headers.host,
      origin: header(headers.origin),
      secFetchSite: header(headers['sec-fetch-site']),
      peer: request.raw.socket?.remoteAddress,
      forwardedProto: header(headers['x-forwarded-proto']),
      forwardedHost: header(headers['x-forwarded-host']),
    },
    { allowHosts: options.allowHosts, port: options.port(), trustProxy: options.trustProxy },
  );
  if (refusal !== null) throw forbidden(refusal);
}
