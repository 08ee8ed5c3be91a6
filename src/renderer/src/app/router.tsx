import { createRootRoute, createRoute, createRouter } from '@tanstack/react-router';
import { ImportPage } from '../features/import/ImportPage';
import { OrganizationsPage } from '../features/organizations/OrganizationsPage';
import { parseOrganizationsSearch } from '../features/organizations/organizations-search';
import { OverviewPage } from '../features/overview/OverviewPage';
import { parseOverviewSearch } from '../features/overview/overview-search';
import { parseScanDetailSearch } from '../features/scan-detail/detail-search';
import { ScanDetailPage } from '../features/scan-detail/ScanDetailPage';
import { parseScansSearch } from '../features/scans/scans-search';
import { ScansPage } from '../features/scans/ScansPage';
import { SettingsPage } from '../features/settings/SettingsPage';
import { Layout, NotFound } from './Layout';

// Code-based routes: every view and filter lives in the URL, so deep links survive a reload.
// Each feature validates its own search parameters next to its page.

const rootRoute = createRootRoute({ component: Layout, notFoundComponent: NotFound });

const overviewRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/',
  component: OverviewPage,
  validateSearch: parseOverviewSearch,
});
const scansRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/scans',
  component: ScansPage,
  validateSearch: parseScansSearch,
});
const scanDetailRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/scans/$scanId',
  component: ScanDetailPage,
  validateSearch: parseScanDetailSearch,
});
const importRoute = createRoute({ getParentRoute: () => rootRoute, path: '/import', component: ImportPage });
const organizationsRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/organizations',
  component: OrganizationsPage,
  validateSearch: parseOrganizationsSearch,
});
const settingsRoute = createRoute({ getParentRoute: () => rootRoute, path: '/settings', component: SettingsPage });

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
