import { QueryState } from '../../components/QueryState';
import { formatCount } from '../../lib/format';
import { SEVERITIES } from '../../../../shared/api/scans';
import { SeverityBadge } from '../scans/SeverityBadge';
import { useViolationSummary } from './use-scan-violations';

/** How a scan's violations split by severity and rule, counted by the server, never by listing them. */
export function ViolationBreakdown({ scanId }: { scanId: string }) {
  const summary = useViolationSummary(scanId);
  const data = summary.data;
  return (
    <QueryState isPending={summary.isPending} error={summary.error} isEmpty={data?.total === 0} empty={null}>
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
          <table className="entries-table violation-rules">
            <caption className="visually-hidden">Violations by rule</caption>
            <thead>
              <tr>
                <th scope="col">Rule</th>
                <th scope="col">Severity</th>
                <th scope="col" className="col-number">
                  Violations
                </th>
              </tr>
            </thead>
            <tbody>
              {data.by_rule.map((row) => (
                <tr key={`${row.severity} ${row.rule}`}>
                  <td>
                    <code>{row.rule}</code>
                  </td>
                  <td>
                    <SeverityBadge severity={row.severity} />
                  </td>
                  <td className="col-number">{formatCount(row.count)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </QueryState>
  );
}
