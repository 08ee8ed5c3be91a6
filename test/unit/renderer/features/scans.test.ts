import { describe, expect, it } from 'vitest';
import { listKeyAction } from '../../../../src/renderer/src/features/scans/list-keys';
import { clickPage, clickRow, EMPTY_SELECTION, pageState } from '../../../../src/renderer/src/features/scans/selection';
import { attachmentDisposition } from '../../../../src/main/http/content-disposition';
import { attachmentName } from '../../../../src/renderer/src/lib/attachment-name';
import {
  pageInfo,
  pageLabel,
  parseScansSearch,
  sortState,
  toggleSort,
  toScanListQuery,
  withFilter,
  exportUrl,
} from '../../../../src/renderer/src/features/scans/scans-search';

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
        sort: '-created_at',
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

  it('reads a tool prefix as a name, and sends it on as tool_prefix', () => {
    expect(parseScansSearch({ tool_prefix: ' cur ' })).toEqual({ tool_prefix: 'cur' });
    expect(parseScansSearch({ tool_prefix: '   ' })).toEqual({});
    expect(parseScansSearch({ tool_prefix: 'x'.repeat(101) })).toEqual({});
    expect(toScanListQuery({ tool_prefix: 'cur' })).toMatchObject({ tool_prefix: 'cur' });
  });

  it('reads has_violations=false and a page size', () => {
    expect(parseScansSearch({ has_violations: false, limit: '200' })).toEqual({ has_violations: false, limit: 200 });
  });
});

describe('the list query', () => {
  it('asks for one page, with until the day itself: the API takes a date as that whole day', () => {
    expect(toScanListQuery({ until: '2026-11-30', offset: 50 })).toMatchObject({
      limit: 50,
      offset: 50,
      until: '2026-11-30',
    });
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

describe('sort', () => {
  it("reads the API's sort values from the URL and drops the default", () => {
    expect(parseScansSearch({ sort: '-tokens' })).toEqual({ sort: '-tokens' });
    expect(parseScansSearch({ sort: 'tokens', tool: 'Cursor' })).toEqual({ sort: 'tokens', tool: 'Cursor' });
    expect(parseScansSearch({ sort: 'created_at' })).toEqual({ sort: 'created_at' });
    expect(parseScansSearch({ sort: '-created_at' })).toEqual({});
    // Surrounding spaces are trimmed from every URL value, as from a typed filter.
    expect(parseScansSearch({ sort: ' -tokens ' })).toEqual({ sort: '-tokens' });
    for (const junk of ['-id', 'TOKENS', 'tokens,created_at', '', 3, ['-tokens'], null]) {
      expect(parseScansSearch({ sort: junk })).toEqual({});
    }
  });

  it('turns the page-only sorts of older links into the server sorts', () => {
    expect(parseScansSearch({ sort: 'tokens-desc' })).toEqual({ sort: '-tokens' });
    expect(parseScansSearch({ sort: 'tokens-asc' })).toEqual({ sort: 'tokens' });
    expect(parseScansSearch({ sort: 'time' })).toEqual({});
  });

  it('asks the server for the order', () => {
    expect(toScanListQuery({ sort: '-tokens' })).toMatchObject({ sort: '-tokens', offset: 0 });
    expect(toScanListQuery({}).sort).toBeUndefined();
  });

  it('marks only the ordered column for aria-sort', () => {
    expect(sortState(undefined, 'created_at')).toBe('descending');
    expect(sortState(undefined, 'tokens')).toBeUndefined();
    expect(sortState('-tokens', 'tokens')).toBe('descending');
    expect(sortState('-tokens', 'created_at')).toBeUndefined();
    expect(sortState('tokens', 'tokens')).toBe('ascending');
    expect(sortState('created_at', 'created_at')).toBe('ascending');
  });

  it('a header click starts descending, then flips, and goes back to the first page', () => {
    const filtered = { tool: 'Cursor', offset: 150, limit: 100 };
    expect(toggleSort(filtered, 'tokens')).toEqual({ tool: 'Cursor', limit: 100, sort: '-tokens' });
    expect(toggleSort({ sort: '-tokens', offset: 50 }, 'tokens')).toEqual({ sort: 'tokens' });
    expect(toggleSort({ sort: 'tokens' }, 'tokens')).toEqual({ sort: '-tokens' });
    expect(toggleSort({ offset: 50 }, 'created_at')).toEqual({ sort: 'created_at' });
    expect(toggleSort({ sort: 'created_at' }, 'created_at')).toEqual({});
    expect(toggleSort({ sort: '-tokens', offset: 50 }, 'created_at')).toEqual({});
  });

  it('a filter change keeps the order', () => {
    expect(withFilter({ sort: '-tokens', offset: 100 }, { tool: 'B' })).toEqual({ sort: '-tokens', tool: 'B' });
  });
});

describe('keys', () => {
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

describe('exportUrl', () => {
  it('carries the filters and order, never the paging, and the format', () => {
    const url = new URL(
      exportUrl({ tool: 'a b', status: 'failed', sort: '-tokens', offset: 50, limit: 25, until: '2026-11-20' }, 'csv'),
      'http://x',
    );
    expect(url.pathname).toBe('/v1/exports/scans');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      tool: 'a b',
      status: 'failed',
      sort: '-tokens',
      until: '2026-11-20',
      format: 'csv',
    });
  });
});

describe('selection', () => {
  const page = ['a', 'b', 'c', 'd', 'e'];

  it('toggles one row and remembers it as the anchor', () => {
    const one = clickRow(EMPTY_SELECTION, 'b', page, false);
    expect([...one.ids]).toEqual(['b']);
    expect(one.anchor).toBe('b');
    expect([...clickRow(one, 'b', page, false).ids]).toEqual([]);
  });

  it('shift-click sets every row between the anchor and the row to the new state', () => {
    const range = clickRow(clickRow(EMPTY_SELECTION, 'b', page, false), 'd', page, true);
    expect([...range.ids].sort()).toEqual(['b', 'c', 'd']);
    const backwards = clickRow(clickRow(EMPTY_SELECTION, 'e', page, false), 'c', page, true);
    expect([...backwards.ids].sort()).toEqual(['c', 'd', 'e']);
    // Shift-clicking a ticked row unticks the range.
    const off = clickRow(range, 'c', page, true);
    expect([...off.ids].sort()).toEqual(['b']);
  });

  it('keeps rows of other pages, and without an anchor on this page shift is a plain click', () => {
    const other = clickRow(EMPTY_SELECTION, 'x', ['x', 'y'], false);
    const here = clickRow(other, 'c', page, true);
    expect([...here.ids].sort()).toEqual(['c', 'x']);
  });

  it('the page checkbox ticks the whole page, or unticks it when all were, and says mixed', () => {
    const all = clickPage(EMPTY_SELECTION, page);
    expect(pageState(all, page)).toBe('all');
    expect(pageState(clickRow(all, 'a', page, false), page)).toBe('some');
    expect(pageState(clickPage(all, page), page)).toBe('none');
  });
});

describe('attachmentName', () => {
  it('prefers filename*, falls back to filename, then to the default', () => {
    expect(attachmentName(`attachment; filename="a.zip"; filename*=UTF-8''%C3%A9t%C3%A9.zip`, 'x')).toBe('été.zip');
    expect(attachmentName(`attachment; filename*=UTF-8''%C3%A9t%C3%A9.zip; filename="a.zip"`, 'x')).toBe('été.zip');
    expect(attachmentName('attachment; filename="a.zip"', 'x')).toBe('a.zip');
    expect(attachmentName('attachment', 'x')).toBe('x');
    expect(attachmentName('attachment; filename="a.zip', 'x')).toBe('x');
    expect(attachmentName(null, 'x')).toBe('x');
  });

  it('reads a malformed filename* leniently, as the content-disposition package does', () => {
    expect(attachmentName(`attachment; filename*=UTF-8''%E0%A4.zip`, 'x')).toBe('\uFFFD.zip');
  });

  it('reads back every name the server writes', () => {
    for (const name of [
      'scandesk-scans-2026-11-02-101500.csv',
      'evidence-a"b.zip',
      'evidence-漢字.zip',
      "a b'(*)%.zip",
    ]) {
      expect(attachmentName(attachmentDisposition(name), 'x')).toBe(name);
    }
  });
});
