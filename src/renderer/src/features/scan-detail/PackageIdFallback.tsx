import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useEffect, type ReactNode } from 'react';
import type { ScanList, ScanListQuery } from '../../../../shared/api/scans';
import { isId } from '../../../../shared/ids';
import { apiGet } from '../../lib/api-client';
import { scanKeys } from '../scans/scans-api';

/** Two rows tell "one scan" from "several". */
function useLookup(query: Partial<ScanListQuery>, enabled: boolean) {
  return useQuery({
    queryKey: scanKeys.list(query),
    queryFn: () => apiGet<ScanList>('/v1/scans', query),
    enabled,
  });
}

/**
 * A scan id that names no scan you can see may be another store's id for a scan held here: the id
 * an imported scan had in its package (an upstream id from a ticket or an email), or a pulled
 * scan's id on its remote (a link from the team server). A link to it lands on the scan held
 * here, the URL replaced by the id it is stored under. The server looks package ids up among the
 * caller's own imports only; `children` (the not-found state) shows when nothing has it.
 */
export function PackageIdFallback({ scanId, children }: { scanId: string; children: ReactNode }) {
  const navigate = useNavigate({ from: '/scans/$scanId' });
  const lookable = isId(scanId);
  const imported = useLookup({ package_id: scanId, limit: 2 }, lookable);
  const pulled = useLookup({ origin_id: scanId, limit: 5 }, lookable);
  const only =
    imported.data?.total === 1
      ? imported.data.scans[0]
      : imported.data?.total === 0 && pulled.data?.total === 1
        ? pulled.data.scans[0]
        : undefined;
  useEffect(() => {
    if (only) void navigate({ params: { scanId: only.id }, search: (previous) => previous, replace: true });
  }, [only, navigate]);

  if (lookable && (imported.isPending || pulled.isPending || only)) {
    return (
      <p className="state" role="status">
        Looking for <code>{scanId}</code> among your imports and pulled scans…
      </p>
    );
  }
  if (imported.data && imported.data.total > 1) {
    return (
      <div className="state" role="alert">
        <p>
          {imported.data.total} of your imported scans had the id <code>{scanId}</code> in their packages.
        </p>
        <Link to="/scans" search={{ package_id: scanId }}>
          List them
        </Link>
      </div>
    );
  }
  if (pulled.data && pulled.data.total > 1) {
    return (
      <div className="state" role="alert">
        <p>
          {pulled.data.total} scans pulled from remotes have the id <code>{scanId}</code> there:
        </p>
        <ul>
          {pulled.data.scans.map((scan) => (
            <li key={scan.id}>
              <Link to="/scans/$scanId" params={{ scanId: scan.id }}>
                {scan.id}
              </Link>
            </li>
          ))}
        </ul>
      </div>
    );
  }
  return children;
}
