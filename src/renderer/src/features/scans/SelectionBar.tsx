import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import type { ScanList } from '../../../../shared/api/scans';
import { EXPORT_MAX_SCANS } from '../../../../shared/api/evidence';
import { ErrorMessage } from '../../components/QueryState';
import { apiDownload, apiGet } from '../../lib/api-client';
import { formatCount } from '../../lib/format';
import { toScanListQuery, type ScansSearch } from './scans-search';
import { PackageProgress } from './package-progress';
import type { Selection } from './selection';

const PAGE = 500;

/** The ids of every scan the list's filters match, in its order, up to `max`. */
async function matchingIds(search: ScansSearch, max: number): Promise<string[]> {
  const ids: string[] = [];
  let after: string | undefined;
  while (ids.length < max) {
    const query = { ...toScanListQuery(search), offset: 0, limit: Math.min(PAGE, max - ids.length), after };
    const page = await apiGet<ScanList>('/v1/scans', query);
    ids.push(...page.scans.map((scan) => scan.id));
    if (page.scans.length < query.limit) break;
    after = page.scans[page.scans.length - 1]!.id;
  }
  return ids;
}

/** What is selected, across pages, and what can be done with it: export one evidence package. */
export function SelectionBar({
  selection,
  search,
  total,
  onSelect,
}: {
  selection: Selection;
  search: ScansSearch;
  total: number;
  onSelect: (next: Selection) => void;
}) {
  const [notice, setNotice] = useState<string>();
  // Scans written into the package so far, read off the download as it streams in.
  const [written, setWritten] = useState(0);
  const selectAll = useMutation({
    mutationFn: () => matchingIds(search, EXPORT_MAX_SCANS),
    onSuccess: (ids) => onSelect({ ids: new Set(ids), anchor: undefined }),
  });
  const exportZip = useMutation({
    mutationFn: (ids: string[]) => {
      const progress = new PackageProgress();
      setWritten(0);
      return apiDownload('/v1/evidence/exports', { scan_ids: ids }, 'scandesk-evidence.zip', (chunk) => {
        progress.push(chunk);
        setWritten(progress.done);
      });
    },
    onSuccess: (name) => setNotice(`Saved ${name}.`),
  });
  const count = selection.ids.size;
  const exporting = exportZip.isPending ? (exportZip.variables?.length ?? count) : 0;
  const capped = total > EXPORT_MAX_SCANS;
  const allLabel = capped
    ? `Select the first ${formatCount(EXPORT_MAX_SCANS)} of ${formatCount(total)} matching (the export limit)`
    : `Select all ${formatCount(total)} matching`;

  return (
    <div className="selection-bar" role="region" aria-label="Selection">
      <span aria-live="polite">{count === 0 ? 'No scans selected' : `${formatCount(count)} selected`}</span>
      {count < Math.min(total, EXPORT_MAX_SCANS) && (
        <button type="button" onClick={() => selectAll.mutate()} disabled={selectAll.isPending}>
          {selectAll.isPending ? 'Selecting…' : allLabel}
        </button>
      )}
      {count > 0 && (
        <>
          <button
            type="button"
            className="primary"
            onClick={() => exportZip.mutate([...selection.ids])}
            disabled={exportZip.isPending || count > EXPORT_MAX_SCANS}
            title={count > EXPORT_MAX_SCANS ? `At most ${EXPORT_MAX_SCANS} scans per package` : undefined}
          >
            {exportZip.isPending ? 'Exporting…' : 'Export evidence (ZIP)'}
          </button>
          {exportZip.isPending && (
            <span className="export-progress" role="status">
              <progress max={exporting} value={written} aria-label="Scans exported" /> {formatCount(written)} of{' '}
              {formatCount(exporting)} scans
            </span>
          )}
          <button type="button" onClick={() => onSelect({ ids: new Set(), anchor: undefined })}>
            Clear
          </button>
        </>
      )}
      {notice && !exportZip.isPending && <span className="muted">{notice}</span>}
      {selectAll.error && <ErrorMessage error={selectAll.error} />}
      {exportZip.error && <ErrorMessage error={exportZip.error} />}
    </div>
  );
}
