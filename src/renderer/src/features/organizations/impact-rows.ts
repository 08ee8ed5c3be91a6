import type { PolicyComparison, PolicyImpact } from '../../../../shared/api/policies';
import { SEVERITIES } from '../../../../shared/api/scans';

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
    ...rules.map((rule) => row(RULE_LABELS[rule] ?? rule, (i) => i.by_rule[rule] ?? 0)),
    ...SEVERITIES.map((severity) => row(`Severity ${severity}`, (i) => i.by_severity[severity] ?? 0)),
  ];
}

/** "+12", "−3" or "0": how the policy's number differs from the stored one. */
export function change(row: ImpactRow): string {
  const delta = row.policy - row.current;
  return delta > 0 ? `+${delta.toLocaleString('en-US')}` : delta < 0 ? `−${(-delta).toLocaleString('en-US')}` : '0';
}
