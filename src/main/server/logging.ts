import type { FastifyRequest, FastifyServerOptions } from 'fastify';

export type LogDestination = { write(line: string): void } & { level?: string };

/** Drops the `token` query parameter (the browser's one-time login link) from logged URLs. */
export function redactUrl(url: string): string {
  return url.replace(/([?&]token=)[^&#]*/gi, '$1[redacted]');
}

/**
 * Request logging: method, redacted URL and status only. Headers are never logged, so
 * Authorization and session cookies cannot leak into the log.
 */
export function loggerOptions(destination: LogDestination): FastifyServerOptions['logger'] {
  return {
    level: destination.level ?? 'info',
    stream: destination,
    redact: { paths: ['req.headers.authorization', 'req.headers.cookie'], censor: '[redacted]' },
    serializers: {
      req: (request: FastifyRequest) => ({ method: request.method, url: redactUrl(request.url) }),
    },
  };
}
