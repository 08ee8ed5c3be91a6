import { describe, expect, it } from 'vitest';
import { pulledOutcome, reportedAs, type PulledFacts } from '../../../../src/main/evidence/import/pulled-outcome';

const facts = (over: Partial<PulledFacts> = {}): PulledFacts => ({
  echo: false,
  stored: false,
  differs: false,
  violationsDiffer: false,
  organizationDiffers: false,
  ...over,
});

describe('pulledOutcome', () => {
  it('a scan not stored yet is new', () => {
    expect(pulledOutcome(facts())).toBe('new');
  });

  it('an echo of our own push is never stored, whatever else is true', () => {
    expect(pulledOutcome(facts({ echo: true }))).toBe('echoed');
    expect(pulledOutcome(facts({ echo: true, stored: true, differs: true, violationsDiffer: true }))).toBe('echoed');
  });

  it('a stored scan the same in every way is unchanged', () => {
    expect(pulledOutcome(facts({ stored: true }))).toBe('unchanged');
  });

  it('violations or the organization alone differing replace just those', () => {
    expect(pulledOutcome(facts({ stored: true, violationsDiffer: true }))).toBe('violations');
    expect(pulledOutcome(facts({ stored: true, organizationDiffers: true }))).toBe('violations');
  });

  it('anything else differing replaces the stored scan, violations or not', () => {
    expect(pulledOutcome(facts({ stored: true, differs: true }))).toBe('replaced');
    expect(pulledOutcome(facts({ stored: true, differs: true, violationsDiffer: true }))).toBe('replaced');
  });

  it('both kinds of change are reported as changed', () => {
    expect(reportedAs('violations')).toBe('changed');
    expect(reportedAs('replaced')).toBe('changed');
    expect(reportedAs('new')).toBe('new');
    expect(reportedAs('unchanged')).toBe('unchanged');
    expect(reportedAs('echoed')).toBe('echoed');
  });
});
