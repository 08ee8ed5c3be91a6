import { createRootRoute, createRoute, createRouter, lazyRouteComponent } from '@tanstack/react-router';
import { parseOrganizationsSearch } from '../features/organizations/organizations-search';
import { startOverviewRequests } from '../features/overview/overview-requests';
import { parseOverviewSearch } from '../features/overview/overview-search';
import { parseScanDetailSearch } from '../features/scan-detail/detail-search';
import { startScanDetailRequests } from '../features/scan-detail/scan-detail-requests';
import { parseScansSearch } from '../features/scans/scans-search';
import { scansQuery } from '../features/scans/use-scans';
import { meQuery } from '../features/users/users-api';
import { startQuery } from '../lib/start-query';
import { Layout, NotFound } from './Layout';
import { pageChunks } from './page-chunks';
import { queryClient } from './query-client';

// Code-based routes: every view and filter lives in the URL, so deep links survive a reload
// (page-of-path.ts reads the same paths before the router exists, to start the page's chunk early).
// Each feature validates its own search parameters next to its page.
// Pages load as their own chunks (recharts only with the pages that chart); the search parsers
// stay in the entry so a URL is validated before its page's code arrives. A loader starts the
// requests a view cannot draw without, beside its chunk rather than after it; it never waits for
// them (the page's own queries show loading and errors), and asks only when nothing is cached.

const rootRoute = createRootRoute({
  component: Layout,
  notFoundComponent: NotFound,
  loader: () => void startQuery(queryClient, meQuery),
});

const overviewRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/',
  component: lazyRouteComponent(pageChunks.overview, 'OverviewPage'),
  validateSearch: parseOverviewSearch,
  loaderDeps: ({ search }) => search,
  // The range's end is the visit's clock: read here once, and the page keeps it for the visit.
  loader: ({ deps }) => {
    const visitedAt = Date.now();
    startOverviewRequests(queryClient, deps, visitedAt);
    return { visitedAt };
  },
});
const scansRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/scans',
  component: lazyRouteComponent(pageChunks.scans, 'ScansPage'),
  validateSearch: parseScansSearch,
  loaderDeps: ({ search }) => search,
  loader: ({ deps }) => void startQuery(queryClient, scansQuery(deps)),
});
const scanDetailRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/scans/$scanId',
  component: lazyRouteComponent(pageChunks.scanDetail, 'ScanDetailPage'),
  validateSearch: parseScanDetailSearch,
  loaderDeps: ({ search }) => search,
  loader: ({ params, deps }) => startScanDetailRequests(queryClient, params.scanId, deps),
});
const importRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/import',
  component: lazyRouteComponent(pageChunks.import, 'ImportPage'),
});
const organizationsRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/organizations',
  component: lazyRouteComponent(pageChunks.organizations, 'OrganizationsPage'),
  validateSearch: parseOrganizationsSearch,
});
const settingsRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/settings',
  component: lazyRouteComponent(pageChunks.settings, 'SettingsPage'),
});

export const routeTree = rootRoute.addChildren([
  overviewRoute,
  scansRoute,
  scanDetailRoute,
  importRoute,
  organizationsRoute,
  settingsRoute,
]);

export const router = createRouter({ routeTree, defaultPreload: 'intent', scrollRestoration: true });

declare module '@tanstack/react-router' {
  interface Register {
    router: typeof router;
  }
}
