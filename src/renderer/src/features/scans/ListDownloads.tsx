import { exportUrl, type ScansSearch } from './scans-search';
import { formatCount } from '../../lib/format';

/** The whole filtered list (every page) as a file: the server streams it, however long. */
export function ListDownloads({ search, total }: { search: ScansSearch; total: number | undefined }) {
  if (!total) return null;
  const all = total === 1 ? 'the 1 scan' : `all ${formatCount(total)} scans`;
  return (
    <p className="list-downloads">
      Download {all} of this list:{' '}
      <a href={exportUrl(search, 'csv')} download>
        CSV
      </a>{' '}
      ·{' '}
      <a href={exportUrl(search, 'json')} download>
        JSON
      </a>
    </p>
  );
}
