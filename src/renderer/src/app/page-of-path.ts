/** The viewer's pages, each its own chunk (page-chunks.ts). */
export type PageName = 'overview' | 'scans' | 'scanDetail' | 'import' | 'organizations' | 'settings';

const EXACT: Readonly<Record<string, PageName>> = {
  '/': 'overview',
  '/scans': 'scans',
  '/import': 'import',
  '/organizations': 'organizations',
  '/settings': 'settings',
};

/**
 * The page a path shows, as the router's routes match it (router.tsx), read before the router
 * exists; undefined for what no page shows (the router's not-found). A trailing slash is the
 * same page, as for the router.
 */
export function pageOfPath(pathname: string): PageName | undefined {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  const exact = Object.hasOwn(EXACT, path) ? EXACT[path] : undefined;
  if (exact) return exact;
  return /^\/scans\/[^/]+$/.test(path) ? 'scanDetail' : undefined;
}

/** The scan a scan page's path names, decoded as the router decodes its `$scanId`; else undefined. */
export function scanIdOfPath(pathname: string): string | undefined {
  if (pageOfPath(pathname) !== 'scanDetail') return undefined;
  try {
    return decodeURIComponent(pathname.split('/')[2]!);
  } catch {
    return undefined;
  }
}
