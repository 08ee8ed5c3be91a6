import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ERROR_STATUS, ErrorBodySchema, type ErrorBody, type ErrorCode } from '../../shared/api/errors';
import { classifyDbError } from '../db/index';
import { DomainError } from '../domain-error';
import { HttpError } from './http-error';
import { detailsFromAjv } from '../http/validation';
import { isApiRoute } from './request-path';

const FRAMEWORK_CODES: Record<string, { code: ErrorCode; message: string }> = {
  FST_ERR_CTP_INVALID_JSON_BODY: { code: 'invalid_json', message: 'the body is not valid JSON' },
  FST_ERR_CTP_EMPTY_JSON_BODY: { code: 'invalid_json', message: 'the body is empty; send a JSON object' },
  FST_ERR_CTP_BODY_TOO_LARGE: { code: 'payload_too_large', message: 'the body is larger than the limit' },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: {
    code: 'unsupported_media_type',
    message: 'unsupported Content-Type; send application/json',
  },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { code: 'validation_failed', message: 'Content-Length does not match the body' },
};

/** Turns anything thrown on any path into a DomainError, hiding the internals of real bugs. */
export function toDomainError(error: FastifyError | Error, request: FastifyRequest): DomainError {
  if (error instanceof DomainError) return error;
  // Retries spent (db/transaction.ts), or a race no retry covers: the request lost to a
  // concurrent one, here or in another server process on the same store. The store is intact.
  const raced = classifyDbError(error);
  if (raced) {
    return new DomainError('conflict', 'a concurrent change to the store won the race; send the request again', [
      { message: raced === 'busy' ? 'the store was busy' : `${raced} conflict` },
    ]);
  }
  const fastifyError = error as FastifyError;
  // Every path parameter is an id: one that fails the id rule names nothing, like an unknown one.
  if (fastifyError.validation && fastifyError.validationContext === 'params') {
    const names = [...new Set(fastifyError.validation.map((error) => error.instancePath.split('/')[1] ?? ''))];
    return new DomainError(
      'not_found',
      'not found',
      names.filter((name) => name !== '').map((field) => ({ field, message: 'cannot be an id' })),
    );
  }
  if (fastifyError.validation) {
    const details = detailsFromAjv(
      fastifyError.validation as Parameters<typeof detailsFromAjv>[0],
      fastifyError.validationContext,
    );
    const first = details[0];
    return new DomainError(
      'validation_failed',
      first ? `${first.field} ${first.message}` : 'the request is invalid',
      details,
    );
  }
  const known = fastifyError.code ? FRAMEWORK_CODES[fastifyError.code] : undefined;
  if (known) {
    const details =
      known.code === 'payload_too_large' ? [{ message: `limit is ${request.routeOptions.bodyLimit ?? 0} bytes` }] : [];
    return new DomainError(known.code, known.message, details);
  }
  if (error instanceof SyntaxError && fastifyError.statusCode === 400) {
    return new DomainError('invalid_json', 'the body is not valid JSON', [{ message: error.message }]);
  }
  // Static files refuse `/%2e%2e/…`, `%00` and dotfiles with a 4xx of their own: the client's fault,
  // never a 500, and a refused file is as absent as a missing one.
  const status = fastifyError.statusCode ?? 500;
  if (status === 403 || status === 404)
    return new DomainError('not_found', `no route ${request.method} ${request.url}`);
  if (status >= 400 && status < 500) {
    return new DomainError('validation_failed', 'the request path is not valid', [
      { field: 'path', message: error.message },
    ]);
  }
  return new DomainError('internal', 'internal error; the server log has the details');
}

/**
 * The one place a domain error becomes HTTP: its code's status (docs/contract/errors.md#codes),
 * its headers, the one body shape (docs/contract/errors.md#shape).
 */
export function sendError(reply: FastifyReply, error: DomainError): FastifyReply {
  if (error instanceof HttpError) for (const [name, value] of Object.entries(error.headers)) reply.header(name, value);
  const status = ERROR_STATUS[error.code];
  const body: ErrorBody = { error: { status, code: error.code, message: error.message, details: error.details } };
  return reply.code(status).type('application/json; charset=utf-8').send(body);
}

/** Every failure answers in the one shape, and every API route's schema says so (4xx and 5xx). */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const domainError = toDomainError(error, request);
    if (ERROR_STATUS[domainError.code] >= 500) request.log.error({ err: error }, 'request failed');
    return sendError(reply, domainError);
  });
  app.addHook('onRoute', (route) => {
    if (!isApiRoute(route.url)) return;
    route.schema = {
      ...route.schema,
      response: { ...(route.schema?.response as object), '4xx': ErrorBodySchema, '5xx': ErrorBodySchema },
    };
  });
}
