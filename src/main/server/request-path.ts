// Which path a request is for, decided the way the router decides it: the router percent-decodes
// (`/%761/me` is `/v1/me`) and accepts absolute-form targets (`GET http://x/v1/me`), so any
// decision taken before routing must look at the same path, never at the raw target.

/** The decoded path of a request target, without scheme, authority, query or fragment. */
export function normalizedPath(target: string): string {
  const withoutAuthority = target.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i, '');
  const path = withoutAuthority.split(/[?#]/, 1)[0] || '/';
  try {
    return decodeURIComponent(path);
  } catch {
    // Not validly encoded: the router refuses it too (400), so the raw form is as good as any.
    return path;
  }
}

export const isApiPath = (path: string): boolean => path === '/v1' || path.startsWith('/v1/');
