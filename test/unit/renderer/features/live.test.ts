import { describe, expect, it } from 'vitest';
import type { ScanSummary } from '../../../../src/shared/api/scans';
import { countNewMatching, matchesListFilters } from '../../../../src/renderer/src/features/live/scan-matching';

const scan = (overrides: Partial<ScanSummary> = {}): ScanSummary => ({
  id: 'scan_01',
  created_at: '2026-11-20T10:00:00.000Z',
  tool: 'ChatGPT',
  tokens: 10,
  status: 'completed',
  action: 'edit',
  organization_id: 'org_1',
  source: 'submitted',
  violation_count: 0,
  worst_severity: null,
  ...overrides,
});

describe('matchesListFilters', () => {
  it('takes every scan without filters', () => {
    expect(matchesListFilters(scan(), {})).toBe(true);
  });

  it('keeps since inclusive and until exclusive, a date as until covering that whole UTC day', () => {
    expect(matchesListFilters(scan(), { since: '2026-11-20' })).toBe(true);
    expect(matchesListFilters(scan(), { since: '2026-11-21' })).toBe(false);
    expect(matchesListFilters(scan(), { until: '2026-11-20T10:00:00Z' })).toBe(false);
    expect(matchesListFilters(scan(), { since: '2026-11-20T10:00:00Z', until: '2026-11-21' })).toBe(true);
    expect(matchesListFilters(scan(), { until: '2026-11-20' })).toBe(true);
    expect(matchesListFilters(scan(), { until: '2026-11-19' })).toBe(false);
  });

  it('matches tool by exact name, and status, organization and violations', () => {
    expect(matchesListFilters(scan(), { tool: 'ChatGPT' })).toBe(true);
    expect(matchesListFilters(scan(), { tool: 'chatgpt' })).toBe(false);
    expect(matchesListFilters(scan(), { tool_prefix: 'chat' })).toBe(true);
    expect(matchesListFilters(scan(), { tool_prefix: 'CHATGPT' })).toBe(true);
    expect(matchesListFilters(scan(), { tool_prefix: 'gpt' })).toBe(false);
    expect(matchesListFilters(scan(), { status: 'failed' })).toBe(false);
    expect(matchesListFilters(scan(), { organization_id: 'org_2' })).toBe(false);
    expect(matchesListFilters(scan({ organization_id: null }), { organization_id: 'org_1' })).toBe(false);
    expect(matchesListFilters(scan(), { has_violations: false })).toBe(true);
    expect(matchesListFilters(scan(), { has_violations: true })).toBe(false);
    expect(matchesListFilters(scan({ violation_count: 2 }), { has_violations: true })).toBe(true);
  });

  it('takes no live scan for a list filtered by package id, which a live row cannot show', () => {
    expect(matchesListFilters(scan(), { package_id: 'UP-1' })).toBe(false);
    expect(countNewMatching([{ scan: scan({ id: 'a' }), at: 100 }], 50, { package_id: 'UP-1' }, new Set())).toBe(0);
  });
});

describe('countNewMatching', () => {
  const heard = [
    { scan: scan({ id: 'a' }), at: 100 },
    { scan: scan({ id: 'b', tool: 'Claude' }), at: 200 },
    { scan: scan({ id: 'c' }), at: 300 },
    { scan: scan({ id: 'c' }), at: 301 },
    { scan: scan({ id: 'd' }), at: 400 },
  ];

  it('counts each matching scan heard after the list was fetched once, leaving out those on screen', () => {
    expect(countNewMatching(heard, 150, {}, new Set())).toBe(3);
    expect(countNewMatching(heard, 150, { tool: 'ChatGPT' }, new Set())).toBe(2);
    expect(countNewMatching(heard, 150, {}, new Set(['d']))).toBe(2);
    expect(countNewMatching(heard, 400, {}, new Set())).toBe(0);
  });
});
