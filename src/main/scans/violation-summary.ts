import type { ViolationSummary } from '../../shared/api/scan-violations';
import type { RuleCount } from './violations.repository';

/**
 * A scan's violation counts by rule and severity, as the summary answers them: totals per
 * severity, and the rules most frequent first (then by rule and severity, so the order is total).
 */
export function violationSummary(counts: readonly RuleCount[]): ViolationSummary {
  const bySeverity = { low: 0, medium: 0, high: 0, critical: 0 };
  let total = 0;
  let withEntry = 0;
  for (const row of counts) {
    bySeverity[row.severity] += row.count;
    total += row.count;
    withEntry += row.withEntry;
  }
  const byRule = counts
    .filter((row) => row.count > 0)
    .map((row) => ({ rule: row.rule, severity: row.severity, count: row.count }))
    .sort(
      (a, b) =>
        b.count - a.count ||
        compareText(a.rule, b.rule) ||
        SEVERITY_ORDER.indexOf(b.severity) - SEVERITY_ORDER.indexOf(a.severity),
    );
  return { total, by_severity: bySeverity, by_rule: byRule, with_entry: withEntry };
}

const SEVERITY_ORDER = ['low', 'medium', 'high', 'critical'] as const;

/** By code unit, as the stores' binary collation would: the same order on every machine. */
const compareText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
