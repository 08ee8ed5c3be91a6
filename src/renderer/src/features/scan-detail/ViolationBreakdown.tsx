import { useState } from 'react';
import { QueryState } from '../../components/QueryState';
import { formatCount } from '../../lib/format';
import { SEVERITIES } from '../../../../shared/api/scans';
import { SeverityBadge } from '../scans/SeverityBadge';
import { useViolationSummary } from './use-scan-violations';
import { groupKey, isGroupOpen, shownGroups } from './violation-groups';
import { ViolationsList } from './ViolationsList';

/**
 * A scan's violations grouped by rule and severity, counted by the server: each group opens to
 * its own violations (paged by the server, each linking to its entry), so a scan with thousands
 * of one rule takes a line, not a page.
 */
export function ViolationBreakdown({
  scanId,
  selectedEntry,
  onSelectEntry,
}: {
  scanId: string;
  selectedEntry: number | undefined;
  onSelectEntry: (index: number) => void;
}) {
  const summary = useViolationSummary(scanId);
  const [showAll, setShowAll] = useState(false);
  const [toggled, setToggled] = useState<ReadonlyMap<string, boolean>>(new Map());
  const data = summary.data;
  const { shown, hidden } = data ? shownGroups(data, showAll) : { shown: [], hidden: 0 };
  return (
    <QueryState
      isPending={summary.isPending}
      error={summary.error}
      isEmpty={data?.total === 0}
      empty="No violations: this scan kept to its policy."
    >
      {data && (
        <div className="violation-breakdown">
          <p className="violation-severities">
            {[...SEVERITIES].reverse().map((severity) =>
              data.by_severity[severity] > 0 ? (
                <SeverityBadge key={severity} severity={severity}>
                  {formatCount(data.by_severity[severity])} {severity}
                </SeverityBadge>
              ) : null,
            )}
          </p>
          <ul className="violation-groups" aria-label="Violations by rule">
            {shown.map((group) => {
              const key = groupKey(group);
              const open = isGroupOpen(group, data.total, toggled);
              return (
                <li key={key} className="violation-group">
                  <button
                    type="button"
                    className="violation-group-toggle"
                    aria-expanded={open}
                    onClick={() => setToggled((previous) => new Map(previous).set(key, !open))}
                  >
                    <span className="violation-group-caret" aria-hidden="true">
                      {open ? '▾' : '▸'}
                    </span>
                    <SeverityBadge severity={group.severity} />
                    <code>{group.rule}</code>
                    <span className="violation-group-count">
                      {formatCount(group.count)} {group.count === 1 ? 'violation' : 'violations'}
                    </span>
                  </button>
                  {open && (
                    <ViolationsList
                      scanId={scanId}
                      group={group}
                      selectedEntry={selectedEntry}
                      onSelectEntry={onSelectEntry}
                    />
                  )}
                </li>
              );
            })}
          </ul>
          {hidden > 0 && (
            <button type="button" className="link-button" onClick={() => setShowAll(true)}>
              Show {formatCount(hidden)} more {hidden === 1 ? 'rule' : 'rules'}
            </button>
          )}
        </div>
      )}
    </QueryState>
  );
}
