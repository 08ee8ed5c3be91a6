import type { FastifyRequest } from 'fastify';

// Which path a request is for, decided the way the router decides it: the router percent-decodes
// (`/%761/me` is `/v1/me`) and accepts absolute-form targets (`GET http://x/v1/me`), so any
// decision taken before routing must look at the same path, never at the raw target.

const ABSOLUTE_FORM = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i;

/** The decoded path of a request target, without scheme, authority, query or fragment. */
export function normalizedPath(target: string): string {
  const withoutAuthority = target.replace(ABSOLUTE_FORM, '');
  const path = withoutAuthority.split(/[?#]/, 1)[0] || '/';
  try {
    return decodeURIComponent(path);
  } catch {
    // Not validly encoded: the router refuses it too (400), so the raw form is as good as any.
    return path;
  }
}

export const isApiPath = (path: string): boolean => path === '/v1' || path.startsWith('/v1/');

/** A route of the API, as declared: what answers 405s for other methods and has the error body schema. */
export const isApiRoute = (url: string): boolean => url.startsWith('/v1') || url === '/healthz';

/**
 * A request for the API that needs a caller: the decoded path, as the router sees it, and the
 * route it matched decide, never the raw target; routes marked `public` need none.
 */
export const isApiRequest = (request: FastifyRequest, path = normalizedPath(request.url)): boolean => {
  // Fastify builds routeOptions anew at each read: once.
  const { url: route, config } = request.routeOptions;
  return (isApiPath(path) || (route !== undefined && isApiPath(route))) && config?.public !== true;
};

/**
 * The request target as a redirect to this same server, with the query parameter `drop` taken
 * out. Browsers read a Location of `//host/x`, `/\host/x` (a backslash is a slash to them) or
 * one with a tab among the slashes as another host, so the path is normalised by the URL parser
 * (dot segments, backslashes, tabs) and its leading slashes collapse to one.
 */
export function sameOriginRedirect(target: string, drop: string): string {
  const path = target.replace(ABSOLUTE_FORM, '').replace(/^[/\\]+/, '');
  // A fixed origin in front, so that nothing in the target can be read as an authority.
  const url = new URL(`http://local/${path}`);
  url.searchParams.delete(drop);
  return url.pathname.replace(/^\/+/, '/') + url.search;
}
