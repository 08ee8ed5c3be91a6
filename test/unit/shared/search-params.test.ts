import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { Id, Label } from '../../../src/shared/api/common';
import { definedOnly, isSearchDate, parseSearch, SearchDate } from '../../../src/shared/search-params';
import { parseOrganizationsSearch } from '../../../src/renderer/src/features/organizations/organizations-search';
import { parseOverviewSearch } from '../../../src/renderer/src/features/overview/overview-search';
import { parseScanDetailSearch } from '../../../src/renderer/src/features/scan-detail/detail-search';
import { parseScansSearch } from '../../../src/renderer/src/features/scans/scans-search';

const Schema = Type.Object({
  day: Type.Optional(SearchDate),
  count: Type.Optional(Type.Integer({ minimum: 0 })),
  flag: Type.Optional(Type.Boolean()),
  name: Type.Optional(Label),
  id: Type.Optional(Id),
  kind: Type.Optional(Type.Enum(['a', 'b'])),
});

/** A search as the URL carries it: every value text, as URLSearchParams gives it back. */
const throughUrl = (search: object): Record<string, string> =>
  Object.fromEntries(new URLSearchParams(Object.entries(definedOnly(search)).map(([k, v]) => [k, String(v)])));

describe('calendar days in a URL', () => {
  it.each(['2026-02-30', '2026-02-29', '2026-04-31', '2026-13-01', '2026-00-10', '2026-1-01', '20261101', 'today'])(
    'refuses %j',
    (day) => expect(isSearchDate(day)).toBe(false),
  );

  it.each(['2028-02-29', '2026-02-28', '2026-12-31', '0001-01-01'])('takes %j', (day) =>
    expect(isSearchDate(day)).toBe(true),
  );

  it('takes no date-time and no number: a date field cannot show them', () => {
    expect(isSearchDate('2026-11-01T00:00:00.000Z')).toBe(false);
    expect(isSearchDate(20261101)).toBe(false);
  });
});

describe('parseSearch', () => {
  it('converts the text of a URL to each field type and keeps what the schema takes', () => {
    expect(
      definedOnly(
        parseSearch(Schema, {
          day: '2026-11-01',
          count: '12',
          flag: 'false',
          name: ' Cursor ',
          id: 'org_1',
          kind: 'b',
        }),
      ),
    ).toEqual({ day: '2026-11-01', count: 12, flag: false, name: 'Cursor', id: 'org_1', kind: 'b' });
  });

  it('drops each field that fails alone, and names every field so that the raw value cannot stay', () => {
    const search = parseSearch(Schema, { day: '2026-02-30', count: '-1', flag: 'maybe', name: 'ok', kind: 'c' });
    expect(search).toEqual({ name: 'ok' });
    expect(Object.keys(search).sort()).toEqual(['count', 'day', 'flag', 'id', 'kind', 'name']);
    expect(search.day).toBeUndefined();
  });

  it('takes anything that is not an object as an empty search', () => {
    for (const input of [undefined, null, 'day=2026-11-01', 5, []])
      expect(definedOnly(parseSearch(Schema, input))).toEqual({});
  });

  it('round-trips: what it gives back reads the same, as given or through the URL', () => {
    const search = parseSearch(Schema, {
      day: '2028-02-29',
      count: 3,
      flag: true,
      name: 'Claude Code',
      id: 'x.1',
      kind: 'a',
    });
    expect(parseSearch(Schema, search)).toEqual(search);
    expect(parseSearch(Schema, throughUrl(search))).toEqual(search);
  });
});

describe('every page reads a date in its URL alike', () => {
  it('refuses 2026-02-30 on the scans page and on the overview', () => {
    expect(definedOnly(parseScansSearch({ since: '2026-02-30', until: '2026-03-01' }))).toEqual({
      until: '2026-03-01',
    });
    expect(definedOnly(parseOverviewSearch({ since: '2026-02-30', until: '2026-03-01' }))).toEqual({});
    expect(definedOnly(parseScansSearch({ until: '2026-02-30' }))).toEqual({});
  });

  it('takes the same real days on both', () => {
    expect(definedOnly(parseScansSearch({ since: '2028-02-29', until: '2028-03-01' }))).toEqual({
      since: '2028-02-29',
      until: '2028-03-01',
    });
    expect(definedOnly(parseOverviewSearch({ since: '2028-02-29', until: '2028-03-01' }))).toEqual({
      since: '2028-02-29',
      until: '2028-03-01',
    });
  });

  it('round-trips each page search through its URL', () => {
    const pages: [(input: unknown) => object, object][] = [
      [
        parseScansSearch,
        {
          since: '2026-11-01',
          until: '2026-11-07',
          tool: 'Claude Code',
          tool_prefix: 'cur',
          status: 'failed',
          organization_id: 'org_1',
          has_violations: false,
          sort: '-tokens',
          offset: 100,
          limit: 200,
        },
      ],
      [parseOverviewSearch, { since: '2026-11-01', until: '2026-11-07' }],
      [parseOverviewSearch, { range: '7d' }],
      [parseScanDetailSearch, { action: 'shell', entry: 5, from: 100, to: 200 }],
      [parseOrganizationsSearch, { org: 'org_1', tab: 'policy', team: 'team_2' }],
    ];
    for (const [parse, search] of pages) {
      expect(definedOnly(parse(search))).toEqual(search);
      expect(definedOnly(parse(throughUrl(search)))).toEqual(search);
    }
  });
});
