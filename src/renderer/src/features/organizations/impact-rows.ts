import type { PolicyComparison, PolicyImpact } from '../../../../shared/api/policies';
import { SEVERITIES } from '../../../../shared/api/scans';
import { formatCount } from '../../lib/format';

export interface ImpactRow {
  label: string;
  current: number;
  policy: number;
}

const RULE_LABELS: Readonly<Record<string, string>> = {
  'tool.blocked': 'Blocked tool',
  'tool.not_allowed': 'Tool not allowed',
  'action.blocked': 'Blocked action',
  'tokens.scan_limit': 'Over the per-scan limit',
  'tokens.request_limit': 'Over the per-request limit',
};

/** `record[key]` if the record has that key itself; rules are named freely (`constructor`). */
const ownOr = <T>(record: Readonly<Record<string, T>>, key: string, fallback: T): T =>
  Object.hasOwn(record, key) ? record[key]! : fallback;

/**
 * The comparison as table rows, stored beside the policy's: flagged scans and violations, then
 * every rule either side flags (by name), then every severity (least to most severe).
 */
export function impactRows(comparison: PolicyComparison): ImpactRow[] {
  const { current, policy } = comparison;
  const row = (label: string, of: (impact: PolicyImpact) => number): ImpactRow => ({
    label,
    current: of(current),
    policy: of(policy),
  });
  const rules = [...new Set([...Object.keys(current.by_rule), ...Object.keys(policy.by_rule)])].sort();
  return [
    row('Flagged scans', (i) => i.flagged_scans),
    row('Violations', (i) => i.violations),
    ...rules.map((rule) => row(ownOr(RULE_LABELS, rule, rule), (i) => ownOr<number>(i.by_rule, rule, 0))),
    ...SEVERITIES.map((severity) => row(`Severity ${severity}`, (i) => ownOr<number>(i.by_severity, severity, 0))),
  ];
}

/** "+12", "−3" or "0": how the policy's number differs from the stored one. */
export function change(row: ImpactRow): string {
  const delta = row.policy - row.current;
  return delta > 0 ? `+${formatCount(delta)}` : delta < 0 ? `−${formatCount(-delta)}` : '0';
}
