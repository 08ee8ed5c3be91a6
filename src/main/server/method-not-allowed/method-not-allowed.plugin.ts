import fp from 'fastify-plugin';
import FindMyWay, { type HTTPMethod } from 'find-my-way';
import { HttpError } from '../http-error';
import { isApiPath, isApiRoute, normalizedPath } from '../request-path';

declare module 'fastify' {
  interface FastifyInstance {
    /** The 405 for `method` on `path`, its Allow header naming the methods the path does take. */
    methodNotAllowed(method: string, path: string): HttpError;
  }
}

export const API_METHODS: HTTPMethod[] = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'];

/**
 * 405 rather than 404 for a path the API has with other methods (docs/contract/errors.md#codes).
 * A second router holding only the API's routes answers "does this path exist with another
 * method?"; the viewer's catch-all must not count. A request no route matched gets its 405 in a
 * preHandler hook: after its body was read, as any handler's, and before the not-found handler
 * (the viewer plugin's). Not encapsulated: it must see every route added after it.
 */
export const methodNotAllowed = fp(
  async (app) => {
    const apiRoutes = FindMyWay();
    app.addHook('onRoute', (route) => {
      if (!isApiRoute(route.url)) return;
      for (const method of [route.method].flat() as HTTPMethod[]) {
        if (!apiRoutes.hasRoute(method, route.url)) apiRoutes.on(method, route.url, () => undefined);
      }
    });

    const refusal = (method: string, path: string): HttpError => {
      const allowed = isApiPath(path) ? API_METHODS.filter((each) => apiRoutes.find(each, path)) : ['GET', 'HEAD'];
      return new HttpError('method_not_allowed', `${method} is not allowed on ${path}; use ${allowed.join(', ')}`, [], {
        Allow: allowed.join(', '),
      });
    };
    app.decorate('methodNotAllowed', refusal);

    // On every request, so kept to a callback and a flag for all but the few no route matched.
    app.addHook('preHandler', (request, _reply, done) => {
      if (!request.is404) return done();
      const path = normalizedPath(request.url);
      done(API_METHODS.some((method) => apiRoutes.find(method, path)) ? refusal(request.method, path) : undefined);
    });
  },
  { name: 'method-not-allowed' },
);
