import { describe, expect, it } from 'vitest';
import { EMPTY_POLICY } from '../../../src/shared/api/policies';
import { emptyImpact, readsTimeline, sameFindings, tally } from '../../../src/main/policies/policy-impact';

const f = (rule: string, severity: 'low' | 'high', timeline_index: number | null, message = 'm') => ({
  rule: rule as 'tool.blocked',
  severity,
  message,
  timeline_index,
});

describe('policy impact', () => {
  it('reads timelines only for the rules that look at them', () => {
    expect(readsTimeline(EMPTY_POLICY)).toBe(false);
    expect(readsTimeline({ ...EMPTY_POLICY, blocked_tools: ['x'], max_tokens_per_scan: 5 })).toBe(false);
    expect(readsTimeline({ ...EMPTY_POLICY, blocked_actions: ['x'] })).toBe(true);
    expect(readsTimeline({ ...EMPTY_POLICY, max_tokens_per_request: 0 })).toBe(true);
  });

  it('tallies flagged scans, violations, rules and severities', () => {
    const impact = emptyImpact();
    tally(impact, [f('a', 'low', null), f('b', 'high', 1), f('b', 'high', 2)]);
    tally(impact, []);
    tally(impact, [f('a', 'high', null)]);
    expect(impact).toEqual({
      flagged_scans: 2,
      violations: 4,
      by_rule: { a: 2, b: 2 },
      by_severity: { low: 1, high: 3 },
    });
  });

  it('compares findings in any order, word for word', () => {
    expect(sameFindings([f('a', 'low', 1), f('b', 'high', null)], [f('b', 'high', null), f('a', 'low', 1)])).toBe(true);
    expect(sameFindings([f('a', 'low', 1)], [f('a', 'low', 2)])).toBe(false);
    expect(sameFindings([f('a', 'low', 1)], [f('a', 'low', 1, 'over the limit of 2')])).toBe(false);
    expect(sameFindings([f('a', 'low', 1)], [f('a', 'low', 1), f('a', 'low', 1)])).toBe(false);
  });
});
