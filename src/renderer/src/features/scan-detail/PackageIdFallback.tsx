import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useEffect, type ReactNode } from 'react';
import type { ScanList } from '../../../../shared/api/scans';
import { isId } from '../../../../shared/ids';
import { apiGet } from '../../lib/api-client';
import { scanKeys } from '../scans/scans-api';

/**
 * A scan id that names no scan you can see may be the id an imported scan had in its package (an
 * upstream id from a ticket or an email): a link to it lands on your import of it, the URL
 * replaced by the id it is stored under. The server looks package ids up among the caller's own
 * imports only; `children` (the not-found state) shows when none has it.
 */
export function PackageIdFallback({ scanId, children }: { scanId: string; children: ReactNode }) {
  const navigate = useNavigate({ from: '/scans/$scanId' });
  const lookable = isId(scanId);
  // Two rows tell "one import" from "several"; each import of an id is stored under one id, so one is the rule.
  const query = { package_id: scanId, limit: 2 };
  const lookup = useQuery({
    queryKey: scanKeys.list(query),
    queryFn: () => apiGet<ScanList>('/v1/scans', query),
    enabled: lookable,
  });
  const only = lookup.data?.total === 1 ? lookup.data.scans[0] : undefined;
  useEffect(() => {
    if (only) void navigate({ params: { scanId: only.id }, search: (previous) => previous, replace: true });
  }, [only, navigate]);

  if (lookable && (lookup.isPending || only)) {
    return (
      <p className="state" role="status">
        Looking for an import of <code>{scanId}</code>…
      </p>
    );
  }
  if (lookup.data && lookup.data.total > 1) {
    return (
      <div className="state" role="alert">
        <p>
          {lookup.data.total} of your imported scans had the id <code>{scanId}</code> in their packages.
        </p>
        <Link to="/scans" search={{ package_id: scanId }}>
          List them
        </Link>
      </div>
    );
  }
  return children;
}
