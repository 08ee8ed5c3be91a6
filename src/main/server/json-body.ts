import type { FastifyInstance } from 'fastify';
import { assertJsonDepth, JsonDepthError } from '../../shared/json-depth';
import { DomainError } from '../domain-error';

/**
 * Fastify's own JSON parser (prototype poisoning refused), after a nesting check: JSON.parse
 * spends seconds on megabytes of `[`, which the check refuses after a few bytes.
 */
export function registerJsonParser(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    const bytes = body as Buffer;
    try {
      assertJsonDepth(bytes);
    } catch (error) {
      if (!(error instanceof JsonDepthError)) throw error;
      done(
        new DomainError('invalid_json', `the body is ${error.message}`, [
          { field: 'body', message: `may nest at most ${error.maxDepth} levels` },
        ]),
        undefined,
      );
      return;
    }
    parse(request, bytes.toString('utf8'), done);
  });
}
