import { ToolField } from './ToolField';
import { SCAN_STATUSES } from '../../../../shared/api/scans';
import { withFilter, type ScansSearch } from './scans-search';
import { useOrganizations, useToolNames } from './use-scans';

/** The filter bar; every change becomes a new URL (and a first page). The table's headers sort. */
export function ScanFilters({ search, onChange }: { search: ScansSearch; onChange: (next: ScansSearch) => void }) {
  const tools = useToolNames();
  const organizations = useOrganizations();
  const set = (patch: Partial<ScansSearch>): void => onChange(withFilter(search, patch));

  return (
    <form className="scans-filters card" aria-label="Scan filters" onSubmit={(event) => event.preventDefault()}>
      <ToolField key={search.tool ?? ''} value={search.tool} tools={tools.data} onCommit={(tool) => set({ tool })} />
      <div className="field">
        <label htmlFor="scans-since">Since</label>
        <input
          id="scans-since"
          type="date"
          value={search.since ?? ''}
          onChange={(event) => set({ since: event.target.value || undefined })}
        />
      </div>
      <div className="field">
        <label htmlFor="scans-until">Until (inclusive)</label>
        <input
          id="scans-until"
          type="date"
          value={search.until ?? ''}
          onChange={(event) => set({ until: event.target.value || undefined })}
        />
      </div>
      <div className="field">
        <label htmlFor="scans-status">Status</label>
        <select
          id="scans-status"
          value={search.status ?? ''}
          onChange={(event) => set({ status: (event.target.value || undefined) as ScansSearch['status'] })}
        >
          <option value="">Any</option>
          {SCAN_STATUSES.map((status) => (
            <option key={status} value={status}>
              {status}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor="scans-organization">Organization</label>
        <select
          id="scans-organization"
          value={search.organization_id ?? ''}
          onChange={(event) => set({ organization_id: event.target.value || undefined })}
        >
          <option value="">Any</option>
          {organizations.data?.organizations.map((organization) => (
            <option key={organization.id} value={organization.id}>
              {organization.name}
            </option>
          ))}
          {search.organization_id &&
            organizations.data &&
            !organizations.data.organizations.some((o) => o.id === search.organization_id) && (
              <option value={search.organization_id}>{search.organization_id}</option>
            )}
        </select>
      </div>
      <div className="field">
        <label htmlFor="scans-violations">Violations</label>
        <select
          id="scans-violations"
          value={search.has_violations === undefined ? '' : String(search.has_violations)}
          onChange={(event) =>
            set({ has_violations: event.target.value === '' ? undefined : event.target.value === 'true' })
          }
        >
          <option value="">Any</option>
          <option value="true">With violations</option>
          <option value="false">Without violations</option>
        </select>
      </div>
      <div className="field field-end">
        {/* The order is not a filter: the table's headers set it, and it stays. */}
        <button type="button" onClick={() => onChange({ limit: search.limit, sort: search.sort })}>
          Clear filters
        </button>
      </div>
    </form>
  );
}
