import { describe, expect, it } from 'vitest';
import { SMALL_STATISTICS_ROWS, tablesToAnalyze } from '../../../../src/main/db/sqlite/statistics-decision';

const row = (optimize: string) => ({ optimize });

describe('tablesToAnalyze', () => {
  it('names the tables optimize would analyze that have no statistics yet', () => {
    const wanted = [
      row('ANALYZE "main"."scans"'),
      row('ANALYZE "main"."timeline_entries"'),
      row('ANALYZE "main"."users"'),
    ];
    expect(tablesToAnalyze(wanted, new Map([['users', 50_000]]))).toEqual(['scans', 'timeline_entries']);
  });

  it('takes statistics again for a table that has outgrown small ones, so a lookup of many keys is no scan', () => {
    const wanted = [row('ANALYZE "main"."scans"'), row('ANALYZE "main"."violations"')];
    const statistics = new Map([
      ['scans', 1_000],
      ['violations', SMALL_STATISTICS_ROWS],
    ]);
    expect(tablesToAnalyze(wanted, statistics)).toEqual(['scans', 'violations']);
  });

  it('leaves a table that has outgrown larger statistics to the next open', () => {
    expect(tablesToAnalyze([row('ANALYZE "main"."scans"')], new Map([['scans', SMALL_STATISTICS_ROWS + 1]]))).toEqual(
      [],
    );
  });

  it('reads quoted names and ignores other schemas and anything it does not recognise', () => {
    const wanted = [row('ANALYZE "main"."odd""name"'), row('ANALYZE "temp"."scratch"'), row('PRAGMA something')];
    expect(tablesToAnalyze(wanted, new Map())).toEqual(['odd"name']);
  });
});
