import { describe, expect, it } from 'vitest';
import { tablesToAnalyze } from '../../../../src/main/db/sqlite/statistics-decision';

const row = (optimize: string) => ({ optimize });

describe('tablesToAnalyze', () => {
  it('names the tables optimize would analyze that have no statistics yet', () => {
    const wanted = [
      row('ANALYZE "main"."scans"'),
      row('ANALYZE "main"."timeline_entries"'),
      row('ANALYZE "main"."users"'),
    ];
    expect(tablesToAnalyze(wanted, new Set(['users']))).toEqual(['scans', 'timeline_entries']);
  });

  it('leaves a table that has outgrown its statistics to the next open', () => {
    expect(tablesToAnalyze([row('ANALYZE "main"."scans"')], new Set(['scans']))).toEqual([]);
  });

  it('reads quoted names and ignores other schemas and anything it does not recognise', () => {
    const wanted = [row('ANALYZE "main"."odd""name"'), row('ANALYZE "temp"."scratch"'), row('PRAGMA something')];
    expect(tablesToAnalyze(wanted, new Set())).toEqual(['odd"name']);
  });
});
