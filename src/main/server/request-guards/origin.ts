import type { FastifyRequest } from 'fastify';
import { forbidden } from '../../domain-error';

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
 * cross-site request (CSRF): docs/contract/auth.md#host-and-origin. Behind a trusted proxy the browser's origin is the
 * proxy's (https, its host and port), which only the proxy's X-Forwarded-Proto/-Host tell; the
 * names allowed stay the same, and the Host the browser sent must be one of them too, so a
 * rebound name cannot pass by sending its own X-Forwarded-Host. Pure: no I/O.
 */
export function originRefusal(
  facts: OriginFacts,
  options: { allowHosts: readonly string[]; port: number | null; trustProxy: boolean },
): string | null {
  const host = splitHost(facts.host ?? '', DEFAULT_PORTS.http!);
  if (!host || !isAllowedName(host.name, options.allowHosts)) return hostRefused(facts.host, options.port);
  const proxied =
    options.trustProxy &&
    isLoopbackAddress(facts.peer) &&
    (facts.forwardedProto !== undefined || facts.forwardedHost !== undefined);

  if (!proxied) {
    if (options.port !== null && host.port !== options.port) return hostRefused(facts.host, options.port);
    // Our own page's Origin is exactly this string; anything else is parsed before it is refused.
    const ours = facts.origin === undefined || facts.origin === `http://${facts.host}`;
    if (!ours && !isOrigin(facts.origin!, 'http', host)) return CROSS_SITE;
  } else {
    // The proxy listens on a port of its own, which the Host it passes on may carry: no port check.
    const scheme = facts.forwardedProto === undefined ? 'http' : lastEntry(facts.forwardedProto).toLowerCase();
    const port = DEFAULT_PORTS[scheme];
    if (port === undefined) return `the proxy's X-Forwarded-Proto "${scheme}" is neither http nor https`;
    const forwardedHost = facts.forwardedHost === undefined ? facts.host! : lastEntry(facts.forwardedHost);
    const publicHost = splitHost(forwardedHost, port);
    if (!publicHost || !isAllowedName(publicHost.name, options.allowHosts)) {
      return `requests for host "${forwardedHost}" are refused; name it with --allow-host`;
    }
    const ours = facts.origin === undefined || facts.origin === `${scheme}://${forwardedHost}`;
    if (!ours && !isOrigin(facts.origin!, scheme, publicHost)) return CROSS_SITE;
  }
  if (facts.secFetchSite === 'cross-site') return CROSS_SITE;
  return null;
}

const CROSS_SITE = 'cross-site requests are refused';

const hostRefused = (host: string | undefined, port: number | null): string =>
  `requests for host "${host ?? ''}" are refused; use http://127.0.0.1:${port ?? '<port>'}`;

const isAllowedName = (name: string, allowHosts: readonly string[]): boolean =>
  LOOPBACK_NAMES.includes(name) || allowHosts.some((each) => each.toLowerCase() === name);

/** Whether an Origin header names `scheme://host` (the scheme's default port when it names none). */
function isOrigin(origin: string, scheme: string, host: HostPort): boolean {
  const parsed = splitOrigin(origin);
  return parsed !== null && parsed.scheme === scheme && parsed.name === host.name && parsed.port === host.port;
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
