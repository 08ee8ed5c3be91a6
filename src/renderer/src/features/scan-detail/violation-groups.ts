import type { ViolationSummary } from '../../../../shared/api/scan-violations';
import type { Severity } from '../../../../shared/api/scans';

/** One row of the summary: a rule at a severity, and how many violations it has. */
export interface ViolationGroup {
  rule: string;
  severity: Severity;
  count: number;
}

/** Rule groups listed before "Show N more rules": a scan's usual few rules, all in sight. */
export const GROUPS_SHOWN = 4;

/**
 * Violations in all up to which every group starts open: a handful of rows costs less room than
 * the clicks to open them, while a scan with many keeps the page to its groups' counts.
 */
export const OPEN_UP_TO = 6;

/** A group's identity: its rule and severity (one rule can be flagged at two severities). */
export const groupKey = (group: Pick<ViolationGroup, 'rule' | 'severity'>): string => `${group.severity} ${group.rule}`;

/**
 * The groups to list, in the summary's order (most violations first), and how many are left out:
 * past GROUPS_SHOWN, the rest wait behind one button unless all are asked for. Leaving out one
 * group would save no room over listing it, so it is listed.
 */
export function shownGroups(
  summary: Pick<ViolationSummary, 'by_rule'>,
  showAll: boolean,
): { shown: ViolationGroup[]; hidden: number } {
  const groups = summary.by_rule;
  if (showAll || groups.length <= GROUPS_SHOWN + 1) return { shown: groups, hidden: 0 };
  return { shown: groups.slice(0, GROUPS_SHOWN), hidden: groups.length - GROUPS_SHOWN };
}

/** Whether a group is open: as the person left it, else open only while the scan has few violations. */
export function isGroupOpen(group: ViolationGroup, total: number, toggled: ReadonlyMap<string, boolean>): boolean {
  return toggled.get(groupKey(group)) ?? total <= OPEN_UP_TO;
}
