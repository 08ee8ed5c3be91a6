import { describe, expect, it } from 'vitest';
import {
  GROUPS_SHOWN,
  groupKey,
  isGroupOpen,
  OPEN_UP_TO,
  shownGroups,
  type ViolationGroup,
} from '../../../../../src/renderer/src/features/scan-detail/violation-groups';

const group = (rule: string, count: number, severity: ViolationGroup['severity'] = 'low'): ViolationGroup => ({
  rule,
  severity,
  count,
});
const rules = (n: number): ViolationGroup[] => Array.from({ length: n }, (_, i) => group(`rule.${i}`, n - i));

describe('shownGroups', () => {
  it('lists a scan’s few rules whole, in the summary’s order', () => {
    const byRule = [group('tokens.request_limit', 57), group('action.blocked', 1, 'high')];
    expect(shownGroups({ by_rule: byRule }, false)).toEqual({ shown: byRule, hidden: 0 });
  });

  it('keeps the rules past the first few behind one button, until all are asked for', () => {
    const byRule = rules(GROUPS_SHOWN + 5);
    expect(shownGroups({ by_rule: byRule }, false)).toEqual({ shown: byRule.slice(0, GROUPS_SHOWN), hidden: 5 });
    expect(shownGroups({ by_rule: byRule }, true)).toEqual({ shown: byRule, hidden: 0 });
  });

  it('never hides a single rule: the button would take its room', () => {
    const byRule = rules(GROUPS_SHOWN + 1);
    expect(shownGroups({ by_rule: byRule }, false)).toEqual({ shown: byRule, hidden: 0 });
  });
});

describe('isGroupOpen', () => {
  const blocked = group('action.blocked', 1, 'high');

  it('opens every group of a scan with few violations, none of one with many', () => {
    expect(isGroupOpen(blocked, OPEN_UP_TO, new Map())).toBe(true);
    expect(isGroupOpen(blocked, OPEN_UP_TO + 1, new Map())).toBe(false);
    expect(isGroupOpen(blocked, 58, new Map())).toBe(false);
  });

  it('follows the person once a group is opened or closed', () => {
    expect(isGroupOpen(blocked, 58, new Map([[groupKey(blocked), true]]))).toBe(true);
    expect(isGroupOpen(blocked, 2, new Map([[groupKey(blocked), false]]))).toBe(false);
  });

  it('tells one rule at two severities apart', () => {
    const high = group('custom.rule', 3, 'high');
    const low = group('custom.rule', 3, 'low');
    expect(groupKey(high)).not.toBe(groupKey(low));
    expect(isGroupOpen(low, 58, new Map([[groupKey(high), true]]))).toBe(false);
  });
});
