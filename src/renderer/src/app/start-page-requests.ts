import { defaultParseSearch } from '@tanstack/react-router';
import { parseScanDetailSearch } from '../features/scan-detail/detail-search';
import { startScanDetailRequests } from '../features/scan-detail/scan-detail-requests';
import { parseScansSearch } from '../features/scans/scans-search';
import { scansQuery } from '../features/scans/use-scans';
import { meQuery } from '../features/users/users-api';
import { startQuery } from '../lib/start-query';
import { pageOfPath, scanIdOfPath } from './page-of-path';
import { queryClient } from './query-client';

// main.tsx imports this second, after start-page-chunk.ts: the first load's requests leave while
// React and the router are still being evaluated (0.1–0.2 s of a warm load), not from the route's
// loader once the router has started. The loaders ask again under the same keys, which finds these
// in flight. The URL is read as the router reads it (its default search parser, then the route's).
// Not the overview's: its range ends at the visit's clock, which its route reads, and its answers
// arrive before its page is drawn anyway.
void startQuery(queryClient, meQuery);
const { pathname, search } = window.location;
if (pageOfPath(pathname) === 'scans')
  void startQuery(queryClient, scansQuery(parseScansSearch(defaultParseSearch(search))));
const scanId = scanIdOfPath(pathname);
if (scanId) startScanDetailRequests(queryClient, scanId, parseScanDetailSearch(defaultParseSearch(search)));
