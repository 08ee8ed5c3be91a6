import type { FastifyRequest, FastifyServerOptions } from 'fastify';

export type LogDestination = { write(line: string): void } & { level?: string };

const decodedName = (name: string): string => {
  try {
    return decodeURIComponent(name.replaceAll('+', ' '));
  } catch {
    return name;
  }
};

/**
 * Drops the value of every query parameter that the server reads as `token` (the browser's
 * one-time login link), however its name is spelled: `%74oken` decodes to `token` too.
 */
export function redactUrl(url: string): string {
  const start = url.indexOf('?');
  if (start < 0) return url;
  const end = url.indexOf('#', start);
  const query = url.slice(start + 1, end < 0 ? undefined : end);
  const redacted = query
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=');
      const name = equals < 0 ? pair : pair.slice(0, equals);
      return decodedName(name).toLowerCase() === 'token' ? `${name}=[redacted]` : pair;
    })
    .join('&');
  return `${url.slice(0, start + 1)}${redacted}${end < 0 ? '' : url.slice(end)}`;
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
