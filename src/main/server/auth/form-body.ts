import type { FastifyInstance } from 'fastify';

/**
 * Lets one plugin scope read HTML form bodies (`application/x-www-form-urlencoded`) as a plain
 * object: only the server's own sign-in pages post forms; the API takes JSON alone.
 */
export function registerFormParser(app: FastifyInstance, bodyLimit: number): void {
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit },
    (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
  );
}
