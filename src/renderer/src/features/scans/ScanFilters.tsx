import { DateFilter, SelectFilter } from '../../components/FilterField';
import { PackageIdField } from './PackageIdField';
import { ToolField } from './ToolField';
import { SCAN_STATUSES } from '../../../../shared/api/scans';
import { withFilter, type ScansSearch } from './scans-search';
import { useOrganizations } from '../organizations/organizations-api';
import { originLabel, useOrigins } from '../overview/OriginPicker';

/** The filter bar; every change becomes a new URL (and a first page). The table's headers sort. */
export function ScanFilters({ search, onChange }: { search: ScansSearch; onChange: (next: ScansSearch) => void }) {
  const organizations = useOrganizations();
  const origins = useOrigins().data?.origins ?? [];
  const set = (patch: Partial<ScansSearch>): void => onChange(withFilter(search, patch));

  return (
    <form className="scans-filters card" aria-label="Scan filters" onSubmit={(event) => event.preventDefault()}>
      <ToolField
        key={JSON.stringify([search.tool, search.tool_prefix])}
        tool={search.tool}
        prefix={search.tool_prefix}
        onCommit={set}
      />
      <DateFilter
        id="scans-since"
        label="Since (UTC)"
        hint="scans-days"
        value={search.since}
        onChange={(since) => set({ since })}
      />
      <DateFilter
        id="scans-until"
        label="Until (UTC, inclusive)"
        hint="scans-days"
        value={search.until}
        onChange={(until) => set({ until })}
      />
      {/* The API's meaning of a day, which the CLI's --since/--until share. */}
      <span id="scans-days" className="visually-hidden">
        Whole UTC days, YYYY-MM-DD: Since starts at 00:00 UTC, Until includes its whole day.
      </span>
      <SelectFilter
        id="scans-status"
        label="Status"
        value={search.status}
        onChange={(status) => set({ status: status as ScansSearch['status'] })}
      >
        {SCAN_STATUSES.map((status) => (
          <option key={status} value={status}>
            {status}
          </option>
        ))}
      </SelectFilter>
      <SelectFilter
        id="scans-organization"
        label="Organization"
        value={search.organization_id}
        onChange={(organization_id) => set({ organization_id })}
      >
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
      </SelectFilter>
      {/* Only where there is something to tell apart: pulled scans, or a remote filling this store. */}
      {(origins.length > 1 || search.origin !== undefined) && (
        <SelectFilter id="scans-origin" label="Origin" value={search.origin} onChange={(origin) => set({ origin })}>
          {origins.map(({ origin }) => (
            <option key={origin} value={origin}>
              {originLabel(origin)}
            </option>
          ))}
          {search.origin !== undefined && !origins.some((o) => o.origin === search.origin) && (
            <option value={search.origin}>{search.origin}</option>
          )}
        </SelectFilter>
      )}
      <SelectFilter
        id="scans-violations"
        label="Violations"
        value={search.has_violations === undefined ? undefined : String(search.has_violations)}
        onChange={(value) => set({ has_violations: value === undefined ? undefined : value === 'true' })}
      >
        <option value="true">With violations</option>
        <option value="false">Without violations</option>
      </SelectFilter>
      <PackageIdField
        key={search.package_id ?? ''}
        value={search.package_id}
        onCommit={(package_id) => set({ package_id })}
      />
      <div className="field field-end">
        {/* The order is not a filter: the table's headers set it, and it stays. */}
        <button type="button" onClick={() => onChange({ limit: search.limit, sort: search.sort })}>
          Clear filters
        </button>
      </div>
    </form>
  );
}
