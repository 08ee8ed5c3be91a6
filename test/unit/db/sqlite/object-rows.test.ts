import SQLite from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { objectRows } from '../../../../src/main/db/sqlite/object-rows';
import { cachingStatements } from '../../../../src/main/db/sqlite/statement-cache';

describe('rows read as arrays and made into objects', () => {
  let sqlite: SQLite.Database;
  const schemaVersion = (): number => sqlite.pragma('schema_version', { simple: true }) as number;
  const both = (text: string): { ours: ReturnType<typeof objectRows>; theirs: SQLite.Statement } => ({
    ours: objectRows(sqlite.prepare(text), schemaVersion),
    theirs: sqlite.prepare(text),
  });

  beforeEach(() => {
    sqlite = new SQLite(':memory:');
    sqlite.exec(`create table t (a integer, b text, c real, d blob);
      insert into t values (1, 'x', 1.5, x'00ff'), (2, null, null, null), (9007199254740993, '', -0.0, x'')`);
  });
  afterEach(() => sqlite.close());

  it('gives the same rows as better-sqlite3, types and order included', () => {
    for (const text of [
      'select * from t order by a',
      'select b, a as n, a + 1 from t order by a desc',
      'select 1 where 0',
    ]) {
      const { ours, theirs } = both(text);
      expect(ours.all([])).toStrictEqual(theirs.all());
      expect([...ours.iterate([])]).toStrictEqual([...theirs.iterate()]);
    }
  });

  it('binds parameters, and a later column of the same name wins as in better-sqlite3', () => {
    const { ours, theirs } = both('select a, b as a from t where a > ? order by a');
    expect(ours.all([1])).toStrictEqual(theirs.all(1));
    expect(ours.all([1])).toStrictEqual([{ a: null }, { a: '' }]);
  });

  it('follows the columns of a statement the schema changed under', () => {
    const star = objectRows(sqlite.prepare('select * from t where a = 1'), schemaVersion);
    expect(star.all([])).toStrictEqual([{ a: 1, b: 'x', c: 1.5, d: Buffer.from([0, 255]) }]);
    sqlite.exec('alter table t rename column b to name');
    expect(star.all([])).toStrictEqual([{ a: 1, name: 'x', c: 1.5, d: Buffer.from([0, 255]) }]);
    sqlite.exec('alter table t add column e default 5');
    expect([...star.iterate([])]).toStrictEqual([{ a: 1, name: 'x', c: 1.5, d: Buffer.from([0, 255]), e: 5 }]);
  });

  it('follows a schema change under a cached `select *`, the only kind whose names it can change', () => {
    const cached = cachingStatements(sqlite);
    const star = (): unknown[] => cached.prepare('select * from t where a = 2').all([]);
    const named = (): unknown[] => cached.prepare('select a, c from t where a = 2').all([]);
    expect([star(), named()]).toStrictEqual([[{ a: 2, b: null, c: null, d: null }], [{ a: 2, c: null }]]);
    sqlite.exec('alter table t rename column b to name; alter table t drop column d');
    expect([star(), named()]).toStrictEqual([[{ a: 2, name: null, c: null }], [{ a: 2, c: null }]]);
  });

  it('runs a statement that returns rows for its changes too', () => {
    const insert = objectRows(sqlite.prepare('insert into t (a) values (?) returning a'), schemaVersion);
    expect(insert.all([7])).toStrictEqual([{ a: 7 }]);
    expect(insert.run([8])).toMatchObject({ changes: 1 });
    expect(sqlite.prepare('select count(*) as n from t').get()).toStrictEqual({ n: 5 });
  });
});
