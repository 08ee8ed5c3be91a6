import { describe, expect, it } from 'vitest';
import { EMPTY_POLICY, type Policy } from '../../../src/shared/api/policies';
import { evaluatePolicy } from '../../../src/shared/policy/evaluate-policy';
import {
  addFinding,
  closeSide,
  emptyImpact,
  emptySide,
  planSteps,
  readsTimeline,
  sameSides,
  takeWithin,
  timelineRules,
  type FindingKey,
} from '../../../src/main/policies/policy-impact';

const f = (rule: string, severity: 'low' | 'high', timeline_index: number | null, message = 'm') => ({
  rule: rule as 'tool.blocked',
  severity,
  message,
  timeline_index,
});

/** One scan's side of a comparison, from its findings in the order given. */
function sideOf(findings: readonly FindingKey[]) {
  const side = emptySide();
  for (const finding of findings) addFinding(emptyImpact(), side, finding);
  return side;
}

describe('policy impact', () => {
  it('reads timelines only for the rules that look at them', () => {
    expect(readsTimeline(EMPTY_POLICY)).toBe(false);
    expect(readsTimeline({ ...EMPTY_POLICY, blocked_tools: ['x'], max_tokens_per_scan: 5 })).toBe(false);
    expect(readsTimeline({ ...EMPTY_POLICY, blocked_actions: ['x'] })).toBe(true);
    expect(readsTimeline({ ...EMPTY_POLICY, max_tokens_per_request: 0 })).toBe(true);
  });

  it('tallies flagged scans, violations, rules and severities a finding at a time', () => {
    const impact = emptyImpact();
    for (const findings of [[f('a', 'low', null), f('b', 'high', 1), f('b', 'high', 2)], [], [f('a', 'high', null)]]) {
      const side = emptySide();
      for (const finding of findings) addFinding(impact, side, finding);
      closeSide(impact, side);
    }
    expect(impact).toEqual({
      flagged_scans: 2,
      violations: 4,
      by_rule: { a: 2, b: 2 },
      by_severity: { low: 1, high: 3 },
    });
  });

  it('tallies rules named like Object.prototype members as any other', () => {
    const impact = emptyImpact();
    const side = emptySide();
    for (const rule of ['constructor', '__proto__', 'toString', 'constructor'])
      addFinding(impact, side, f(rule, 'low', null));
    expect(Object.entries(impact.by_rule)).toEqual([
      ['constructor', 2],
      ['__proto__', 1],
      ['toString', 1],
    ]);
    expect(JSON.parse(JSON.stringify(impact.by_rule))).toEqual(
      Object.fromEntries([
        ['constructor', 2],
        ['__proto__', 1],
        ['toString', 1],
      ]),
    );
  });

  it('keeps the worst severity of a scan as its rank', () => {
    expect(sideOf([]).worst).toBe(0);
    expect(sideOf([f('a', 'low', 1), f('b', 'high', null), f('c', 'low', 2)]).worst).toBe(3);
  });

  it('compares findings in any order, word for word', () => {
    const same = (a: FindingKey[], b: FindingKey[]) => sameSides(sideOf(a), sideOf(b));
    expect(same([f('a', 'low', 1), f('b', 'high', null)], [f('b', 'high', null), f('a', 'low', 1)])).toBe(true);
    expect(same([], [])).toBe(true);
    expect(same([f('a', 'low', 1)], [f('a', 'low', 2)])).toBe(false);
    expect(same([f('a', 'low', 1)], [f('a', 'high', 1)])).toBe(false);
    expect(same([f('a', 'low', 1)], [f('a', 'low', null)])).toBe(false);
    expect(same([f('a', 'low', 1)], [f('a', 'low', 1, 'over the limit of 2')])).toBe(false);
    expect(same([f('a', 'low', 1)], [f('a', 'low', 1), f('a', 'low', 1)])).toBe(false);
    // Equal multisets of other findings: a sum of hashes must not cancel out.
    expect(same([f('a', 'low', 1), f('a', 'low', 1)], [f('a', 'low', 2), f('a', 'low', 0)])).toBe(false);
  });

  it('tells every pair of distinct findings of a large timeline apart', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 50_000; i++) {
      const side = sideOf([f('tokens.request_limit', 'low', i, `a request used ${i} tokens`)]);
      seen.add(`${side.sumA}:${side.sumB}`);
    }
    expect(seen.size).toBe(50_000);
  });

  it('evaluates a timeline in slices exactly as whole, once the scan-level rules are taken apart', () => {
    const policy: Policy = {
      max_tokens_per_scan: 10,
      max_tokens_per_request: 50,
      allowed_tools: ['other'],
      blocked_tools: ['Tool'],
      blocked_actions: ['shell'],
    };
    const timeline = Array.from({ length: 23 }, (_, i) => ({ action: i % 3 ? 'edit' : 'SHELL', tokens: i * 7 }));
    const subject = { tool: 'tool', tokens: 500 };
    const whole = evaluatePolicy(policy, { ...subject, timeline });
    const sliced = [...evaluatePolicy(policy, { ...subject, timeline: [] })];
    for (let from = 0; from < timeline.length; from += 5) {
      const part = evaluatePolicy(timelineRules(policy), { ...subject, timeline: timeline.slice(from, from + 5) });
      sliced.push(...part.map((finding) => ({ ...finding, timeline_index: finding.timeline_index! + from })));
    }
    expect(sliced).toEqual(whole);
  });

  it('plans reads that never exceed the budget, small items together and large ones in slices', () => {
    const steps = planSteps(
      [
        { key: 'a', rows: 3 },
        { key: 'none', rows: 0 },
        { key: 'b', rows: 4 },
        { key: 'c', rows: 5 },
        { key: 'big', rows: 23 },
        { key: 'd', rows: 10 },
      ],
      10,
    );
    expect(steps).toEqual([
      { kind: 'items', keys: ['a', 'b'] },
      { kind: 'items', keys: ['c'] },
      { kind: 'slice', key: 'big', from: 0, to: 10 },
      { kind: 'slice', key: 'big', from: 10, to: 20 },
      { kind: 'slice', key: 'big', from: 20, to: 23 },
      { kind: 'items', keys: ['d'] },
    ]);
    expect(planSteps([], 10)).toEqual([]);
  });

  it('takes as many scans into a round as fit, and always one', () => {
    expect(takeWithin([4, 4, 4], 10)).toBe(2);
    expect(takeWithin([40, 1], 10)).toBe(1);
    expect(takeWithin([0, 0, 10, 1], 10)).toBe(3);
    expect(takeWithin([], 10)).toBe(0);
  });
});
