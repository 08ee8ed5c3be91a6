import { describe, expect, it } from 'vitest';
import { violationSummary } from '../../../src/main/scans/violation-summary';

describe('violationSummary', () => {
  it('totals severities and orders rules by count, then rule, then the worse severity', () => {
    const summary = violationSummary([
      { rule: 'b', severity: 'low', count: 5, withEntry: 5 },
      { rule: 'a', severity: 'low', count: 5, withEntry: 4 },
      { rule: 'a', severity: 'critical', count: 5, withEntry: 0 },
      { rule: 'z', severity: 'medium', count: 9, withEntry: 9 },
      { rule: 'c', severity: 'high', count: 1, withEntry: 1 },
    ]);
    expect(summary).toEqual({
      total: 25,
      by_severity: { low: 10, medium: 9, high: 1, critical: 5 },
      by_rule: [
        { rule: 'z', severity: 'medium', count: 9 },
        { rule: 'a', severity: 'critical', count: 5 },
        { rule: 'a', severity: 'low', count: 5 },
        { rule: 'b', severity: 'low', count: 5 },
        { rule: 'c', severity: 'high', count: 1 },
      ],
      with_entry: 19,
    });
  });

  it('keeps rules named like Object.prototype members as rows', () => {
    const summary = violationSummary([
      { rule: '__proto__', severity: 'low', count: 2, withEntry: 0 },
      { rule: 'constructor', severity: 'high', count: 1, withEntry: 1 },
    ]);
    expect(summary.by_rule.map((row) => row.rule)).toEqual(['__proto__', 'constructor']);
    expect(summary.total).toBe(3);
  });

  it('answers zeros for a scan without violations', () => {
    expect(violationSummary([])).toEqual({
      total: 0,
      by_severity: { low: 0, medium: 0, high: 0, critical: 0 },
      by_rule: [],
      with_entry: 0,
    });
  });
});
