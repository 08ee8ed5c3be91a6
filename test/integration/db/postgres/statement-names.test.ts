/**
 * The pool's named statements against the run's PostgreSQL: a data statement is prepared once per
 * connection and run again by name, a failed run leaves it usable, and a `*` text stays unnamed.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../../helpers/test-app';
import { onPostgres } from '../../../helpers/test-database';

describe.runIf(onPostgres)('named statements', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext();
  });
  afterAll(() => ctx.close());

  const inverse = (n: number) => sql<{ q: number }>`select 1.0 / ${n}::int as q`;
  const everything = sql`select * from (select 1 as one) as t`;

  it('prepares a statement on its connection once, and runs it again by name', async () => {
    const prepared = await ctx.db.transaction().execute(async (trx) => {
      expect((await inverse(4).execute(trx)).rows).toEqual([{ q: 0.25 }]);
      expect((await inverse(8).execute(trx)).rows).toEqual([{ q: 0.125 }]);
      await everything.execute(trx);
      const { rows } = await sql<{ statement: string }>`select statement from pg_prepared_statements`.execute(trx);
      return rows.map((row) => row.statement);
    });
    expect(prepared.filter((text) => text === 'select 1.0 / $1::int as q')).toHaveLength(1);
    expect(prepared.some((text) => text.startsWith('select * from'))).toBe(false);
  });

  it('runs a statement by name again on the connection where a run of it failed', async () => {
    const after = await ctx.db.transaction().execute(async (trx) => {
      await sql`savepoint before_failure`.execute(trx);
      await expect(inverse(0).execute(trx)).rejects.toThrow(/division by zero/);
      await sql`rollback to savepoint before_failure`.execute(trx);
      return (await inverse(2).execute(trx)).rows;
    });
    expect(after).toEqual([{ q: 0.5 }]);
  });
});
