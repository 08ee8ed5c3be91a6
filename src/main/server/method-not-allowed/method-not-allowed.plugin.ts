import fp from 'fastify-plugin';
import FindMyWay, { type HTTPMethod } from 'find-my-way';
import { HttpError } from '../http-error';
import { isApiPath, isApiRoute } from '../request-path';

declare module 'fastify' {
  interface FastifyInstance {
    /** The 405 for `method` on `path`, its Allow header naming the methods the path does take. */
    methodNotAllowed(method: string, path: string): HttpError;
    /** For a request no route took: its 405 if the API has `path` with other methods, else nothing. */
    methodNotAllowedFor(method: string, path: string): HttpError | undefined;
  }
}

export const API_METHODS: HTTPMethod[] = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'];

/**
 * 405 rather than 404 for a path the API has with other methods (docs/contract/errors.md#codes).
 * A second router holding only the API's routes answers "does this path exist with another
 * method?"; the viewer's catch-all must not count. The not-found handler (the viewer plugin's)
 * asks it first, so a request no route took is answered 405 where the path exists; a hook on
 * every request would cost each of them for the few that need it. Not encapsulated: it must see
 * every route added after it.
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
    app.decorate('methodNotAllowedFor', (method: string, path: string) =>
      API_METHODS.some((each) => apiRoutes.find(each, path)) ? refusal(method, path) : undefined,
    );
  },
  { name: 'method-not-allowed' },
);
