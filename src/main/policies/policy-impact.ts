import type { Policy, PolicyImpact } from '../../shared/api/policies';
import type { Finding } from '../../shared/policy/evaluate-policy';

/** A stored or computed violation, as far as comparing two evaluations goes. */
export type FindingKey = Pick<Finding, 'rule' | 'severity' | 'message' | 'timeline_index'>;

/** Whether evaluating `policy` reads a scan's timeline (else tool and tokens suffice). */
export const readsTimeline = (policy: Policy): boolean =>
  policy.blocked_actions.length > 0 || policy.max_tokens_per_request !== null;

export const emptyImpact = (): PolicyImpact => ({ flagged_scans: 0, violations: 0, by_rule: {}, by_severity: {} });

/** Adds one scan's findings to a tally. */
export function tally(impact: PolicyImpact, findings: readonly FindingKey[]): void {
  if (findings.length === 0) return;
  impact.flagged_scans += 1;
  impact.violations += findings.length;
  for (const { rule, severity } of findings) {
    impact.by_rule[rule] = (impact.by_rule[rule] ?? 0) + 1;
    impact.by_severity[severity] = (impact.by_severity[severity] ?? 0) + 1;
  }
}

const keyOf = (f: FindingKey): string => JSON.stringify([f.rule, f.severity, f.message, f.timeline_index]);

/** Whether two evaluations of one scan flag the same things, word for word, in any order. */
export function sameFindings(a: readonly FindingKey[], b: readonly FindingKey[]): boolean {
  if (a.length !== b.length) return false;
  const left = a.map(keyOf).sort();
  const right = b.map(keyOf).sort();
  return left.every((key, i) => key === right[i]);
}
