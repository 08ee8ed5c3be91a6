import { describe, expect, it } from 'vitest';
import {
  isLostStatement,
  MAX_NAMED_LENGTH,
  MAX_NAMED_PARAMETERS,
  StatementNames,
} from '../../../../src/main/db/postgres/statement-names';

describe('StatementNames', () => {
  it('gives a data statement one name, the same on every ask, and another text another', () => {
    const names = new StatementNames(10);
    const first = names.nameOf('select "id" from "scans" where "id" = $1', 1);
    expect(first).toBeDefined();
    expect(names.nameOf('select "id" from "scans" where "id" = $1', 1)).toBe(first);
    const second = names.nameOf('\n  update "scans" set "status" = $1 where "id" = $2', 2);
    expect(second).toBeDefined();
    expect(second).not.toBe(first);
  });

  it('names the data statements only: no transaction control, no DDL', () => {
    const names = new StatementNames(10);
    for (const text of ['start transaction', 'commit', 'savepoint "a"', 'create table t (a int)', 'selector'])
      expect(names.nameOf(text, 0)).toBeUndefined();
    for (const text of ['insert into t values ($1)', 'delete from t where a = $1', 'with a as (select 1) select 1'])
      expect(names.nameOf(text, 1)).toBeDefined();
  });

  it('leaves a text with a `*` unnamed, but not for count(*)', () => {
    const names = new StatementNames(10);
    expect(names.nameOf('select * from "scans"', 0)).toBeUndefined();
    expect(names.nameOf('select "scans".* from "scans"', 0)).toBeUndefined();
    expect(names.nameOf('insert into t (a) values ($1) returning *', 1)).toBeUndefined();
    expect(names.nameOf('select count(*) as "n" from "scans"', 0)).toBeDefined();
    expect(names.nameOf('select COUNT(*) as "n", 2 * "tokens" from "scans"', 0)).toBeUndefined();
  });

  it('leaves long texts and many parameters unnamed', () => {
    const names = new StatementNames(10);
    expect(names.nameOf(`select ${'1'.padEnd(MAX_NAMED_LENGTH, ' ')}`, 0)).toBeUndefined();
    expect(names.nameOf('select $1', MAX_NAMED_PARAMETERS + 1)).toBeUndefined();
    expect(names.nameOf('select $1', MAX_NAMED_PARAMETERS)).toBeDefined();
  });

  it('names at most `limit` texts, and keeps the names it gave', () => {
    const names = new StatementNames(2);
    const a = names.nameOf('select 1', 0);
    const b = names.nameOf('select 2', 0);
    expect(names.nameOf('select 3', 0)).toBeUndefined();
    expect([names.nameOf('select 1', 0), names.nameOf('select 2', 0)]).toEqual([a, b]);
    expect(new Set([a, b]).size).toBe(2);
  });

  it('names nothing once turned off, not even a text it named before', () => {
    const names = new StatementNames(10);
    expect(names.nameOf('select 1', 0)).toBeDefined();
    names.turnOff();
    expect(names.isOff).toBe(true);
    expect(names.nameOf('select 1', 0)).toBeUndefined();
    expect(names.nameOf('select 2', 0)).toBeUndefined();
  });
});

describe('isLostStatement', () => {
  it("is PostgreSQL's answer that a named statement is missing or already there", () => {
    expect(isLostStatement(Object.assign(new Error('prepared statement "a" does not exist'), { code: '26000' }))).toBe(
      true,
    );
    expect(isLostStatement(Object.assign(new Error('prepared statement "a" already exists'), { code: '42P05' }))).toBe(
      true,
    );
    expect(isLostStatement(Object.assign(new Error('division by zero'), { code: '22012' }))).toBe(false);
    expect(isLostStatement(new Error('no code'))).toBe(false);
    expect(isLostStatement(null)).toBe(false);
  });
});
