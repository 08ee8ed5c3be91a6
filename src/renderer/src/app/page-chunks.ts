import type { PageName } from './page-of-path';

/**
 * Each page's chunk: the router's lazy routes load them, and start-page-chunk.ts starts the one
 * the URL shows before the app's own code has run. One import() per page, so both share its module.
 */
export const pageChunks = {
  overview: () => import('../features/overview/OverviewPage'),
  scans: () => import('../features/scans/ScansPage'),
  scanDetail: () => import('../features/scan-detail/ScanDetailPage'),
  import: () => import('../features/import/ImportPage'),
  organizations: () => import('../features/organizations/OrganizationsPage'),
  settings: () => import('../features/settings/SettingsPage'),
} satisfies Record<PageName, () => Promise<unknown>>;
