import { describe, expect, it } from 'vitest';
import type { ScanSummary } from '../../src/shared/api/scans';
import { listKeyAction } from '../../src/renderer/src/features/scans/list-keys';
import {
  nextDay,
  pageInfo,
  pageLabel,
  parseScansSearch,
  sortPage,
  toolNames,
  toScanListQuery,
  withFilter,
} from '../../src/renderer/src/features/scans/scans-search';

const fmt = (n: number): string => n.toLocaleString('en-US');

describe('parseScansSearch', () => {
  it('keeps valid filters and drops defaults', () => {
    expect(
      parseScansSearch({
        tool: ' Cursor ',
        has_violations: 'true',
        offset: '100',
        limit: 50,
        since: '2026-11-01',
        status: 'failed',
        sort: 'time',
      }),
    ).toEqual({ tool: 'Cursor', has_violations: true, offset: 100, since: '2026-11-01', status: 'failed' });
  });

  it('tolerates junk', () => {
    expect(parseScansSearch(null)).toEqual({});
    expect(parseScansSearch('x')).toEqual({});
    expect(
      parseScansSearch({
        limit: 9999,
        offset: -3,
        since: '2026-13-45',
        until: 'yesterday',
        status: 'weird',
        has_violations: 'maybe',
        sort: 'random',
        tool: 'x'.repeat(101),
        organization_id: {},
      }),
    ).toEqual({});
  });

  it('reads has_violations=false and a page size', () => {
    expect(parseScansSearch({ has_violations: false, limit: '200' })).toEqual({ has_violations: false, limit: 200 });
  });
});

describe('the list query', () => {
  it('asks for one page with the inclusive until turned into the exclusive day after', () => {
    expect(toScanListQuery({ until: '2026-11-30', offset: 50 })).toMatchObject({
      limit: 50,
      offset: 50,
      until: '2026-12-01',
    });
    expect(nextDay('2026-12-31')).toBe('2027-01-01');
  });

  it('a filter change goes back to the first page', () => {
    expect(withFilter({ tool: 'A', offset: 200, limit: 100 }, { tool: 'B' })).toEqual({ tool: 'B', limit: 100 });
  });
});

describe('paging', () => {
  it('labels and bounds the pages', () => {
    const first = pageInfo(0, 50, 50, 1234);
    expect(pageLabel(first, fmt)).toBe('1–50 of 1,234');
    expect(first.previousOffset).toBeUndefined();
    expect(first.nextOffset).toBe(50);
    const last = pageInfo(1200, 50, 34, 1234);
    expect(pageLabel(last, fmt)).toBe('1,201–1,234 of 1,234');
    expect(last.nextOffset).toBeUndefined();
    expect(last.previousOffset).toBe(1150);
    expect(pageLabel(pageInfo(0, 50, 0, 0), fmt)).toBe('0 of 0');
    expect(pageInfo(30, 50, 10, 40).previousOffset).toBe(0);
  });
});

describe('sortPage', () => {
  const row = (id: string, tokens: number, created_at: string): ScanSummary => ({
    id,
    tokens,
    created_at,
    tool: 't',
    action: 'a',
    status: 'completed',
    organization_id: null,
    source: 'submitted',
    violation_count: 0,
    worst_severity: null,
  });
  const rows = [row('a', 5, '2026-01-03'), row('b', 9, '2026-01-02'), row('c', 5, '2026-01-04')];

  it('keeps the server order by time and sorts tokens within the page', () => {
    expect(sortPage(rows, undefined).map((r) => r.id)).toEqual(['a', 'b', 'c']);
    expect(sortPage(rows, 'tokens-desc').map((r) => r.id)).toEqual(['b', 'c', 'a']);
    expect(sortPage(rows, 'tokens-asc').map((r) => r.id)).toEqual(['c', 'a', 'b']);
    expect(rows.map((r) => r.id)).toEqual(['a', 'b', 'c']);
  });
});

describe('toolNames and keys', () => {
  it('collects tool names from grouped stats', () => {
    expect(toolNames([{ groups: { b: {}, a: {} } }, { groups: { c: {}, a: {} } }, {}])).toEqual(['a', 'b', 'c']);
  });

  it('moves the selection with j/k within bounds and opens with Enter', () => {
    expect(listKeyAction('j', -1, 3)).toEqual({ type: 'select', index: 0 });
    expect(listKeyAction('j', 2, 3)).toEqual({ type: 'select', index: 2 });
    expect(listKeyAction('k', 0, 3)).toEqual({ type: 'select', index: 0 });
    expect(listKeyAction('Enter', 1, 3)).toEqual({ type: 'open', index: 1 });
    expect(listKeyAction('Enter', -1, 3)).toBeUndefined();
    expect(listKeyAction('x', 1, 3)).toBeUndefined();
    expect(listKeyAction('j', 0, 0)).toBeUndefined();
  });
});
