import type { FastifyRequest } from 'fastify';
import { forbidden } from '../http/domain-error';

export interface GuardOptions {
  /** Extra host names accepted besides the loopback names (`--allow-host`). */
  allowHosts: readonly string[];
  /** The port the server listens on; null when it does not (in-process tests), then any port. */
  port: () => number | null;
}

const LOOPBACK_NAMES = ['127.0.0.1', 'localhost', '[::1]'];

function splitHost(host: string): { name: string; port: number } | null {
  const match = /^(\[[0-9a-f:.]+\]|[^:[\]]+)(?::(\d{1,5}))?$/i.exec(host.trim());
  if (!match?.[1]) return null;
  return { name: match[1].toLowerCase(), port: match[2] ? Number(match[2]) : 80 };
}

/**
 * Refuses requests a browser could be tricked into sending: a Host other than our own (DNS
 * rebinding) and cross-site requests (CSRF) — SPEC.md §2.
 */
export function checkRequestOrigin(request: FastifyRequest, options: GuardOptions): void {
  const host = request.headers.host ?? '';
  const parsed = splitHost(host);
  const port = options.port();
  const names = [...LOOPBACK_NAMES, ...options.allowHosts.map((name) => name.toLowerCase())];
  if (!parsed || !names.includes(parsed.name) || (port !== null && parsed.port !== port)) {
    throw forbidden(`requests for host "${host}" are refused; use http://127.0.0.1:${port ?? '<port>'}`);
  }
  const origin = request.headers.origin;
  if (origin !== undefined && origin !== `http://${host}`) {
    throw forbidden('cross-site requests are refused');
  }
  if (request.headers['sec-fetch-site'] === 'cross-site') {
    throw forbidden('cross-site requests are refused');
  }
}
