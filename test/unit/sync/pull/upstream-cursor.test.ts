import { describe, expect, it } from 'vitest';
import {
  chooseUpstreamPass,
  newestTime,
  nextOffset,
  parseUpstreamCursor,
  passComplete,
  serializeUpstreamCursor,
  type UpstreamCursor,
} from '../../../../src/main/sync/pull/upstream-cursor';

const cursor: UpstreamCursor = { v: 1, kind: 'upstream', since: '2026-11-01T00:00:00.000Z', before: 40, gone: 2 };

describe('upstream cursor', () => {
  it('reads back what it wrote', () => {
    expect(parseUpstreamCursor(serializeUpstreamCursor(cursor))).toEqual(cursor);
    expect(parseUpstreamCursor(serializeUpstreamCursor({ ...cursor, since: null }))).toEqual({
      ...cursor,
      since: null,
    });
  });

  it('takes anything else for no cursor', () => {
    for (const text of [
      null,
      '',
      'not json',
      'null',
      '[]',
      '{"v":2,"kind":"upstream","since":null,"before":0,"gone":0}',
      // a Scandesk feed cursor left by a remote that changed kind
      'eyJ2IjoxfQ',
      '{"v":1,"kind":"scandesk","since":null,"before":0,"gone":0}',
      '{"v":1,"kind":"upstream","since":"yesterday","before":0,"gone":0}',
      '{"v":1,"kind":"upstream","since":null,"before":-1,"gone":0}',
      '{"v":1,"kind":"upstream","since":null,"before":1.5,"gone":0}',
      '{"v":1,"kind":"upstream","since":null,"before":0}',
    ]) {
      expect(parseUpstreamCursor(text), String(text)).toBeNull();
    }
  });
});

describe('chooseUpstreamPass', () => {
  it('reads everything without a cursor or a watermark', () => {
    expect(chooseUpstreamPass(null, { all: 10, sinceWatermark: 0 })).toEqual({ mode: 'full' });
    expect(chooseUpstreamPass({ ...cursor, since: null }, { all: 10, sinceWatermark: 10 })).toEqual({ mode: 'full' });
  });

  it('reads since the watermark while the counts add up', () => {
    expect(chooseUpstreamPass(cursor, { all: 45, sinceWatermark: 5 })).toEqual({ mode: 'since', since: cursor.since });
    expect(chooseUpstreamPass(cursor, { all: 40, sinceWatermark: 0 })).toEqual({ mode: 'since', since: cursor.since });
  });

  it('reads everything again when the list below the watermark changed', () => {
    // one removed below the watermark
    expect(chooseUpstreamPass(cursor, { all: 44, sinceWatermark: 5 })).toEqual({ mode: 'full' });
    // one added with an older time
    expect(chooseUpstreamPass(cursor, { all: 46, sinceWatermark: 5 })).toEqual({ mode: 'full' });
  });
});

describe('newestTime', () => {
  it('keeps the newest instant, whatever the notation', () => {
    expect(newestTime(null, [])).toBeNull();
    expect(newestTime('2026-11-01T00:00:00Z', [])).toBe('2026-11-01T00:00:00Z');
    expect(newestTime(null, ['2026-11-02T00:00:00.000Z', '2026-11-02T01:00:00+02:00', '2026-11-01T00:00:00Z'])).toBe(
      '2026-11-02T00:00:00.000Z',
    );
    expect(newestTime('2026-11-05T00:00:00Z', ['2026-11-04T00:00:00Z'])).toBe('2026-11-05T00:00:00Z');
    expect(newestTime(null, ['garbage', '2026-11-04T00:00:00Z'])).toBe('2026-11-04T00:00:00Z');
  });
});

describe('offset paging', () => {
  it('stops at the total or at an empty page', () => {
    expect(nextOffset(0, 50, 120)).toBe(50);
    expect(nextOffset(100, 20, 120)).toBeNull();
    expect(nextOffset(100, 0, 500)).toBeNull();
    // a server that answers fewer than asked: go on from what came
    expect(nextOffset(0, 10, 120)).toBe(10);
  });

  it('is complete only when every listed scan was read', () => {
    expect(passComplete(120, 120)).toBe(true);
    expect(passComplete(119, 120)).toBe(false);
    expect(passComplete(121, 120)).toBe(true);
  });
});
