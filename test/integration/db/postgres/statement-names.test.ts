/**
 * The pool's named statements against the run's PostgreSQL: a data statement is prepared once per
 * connection and run again by name, a failed run leaves it usable, and a `*` text stays unnamed.
 * A server that lost what a connection prepared (as behind a pooler in transaction mode) turns
 * them off, losing at most the transaction that met it.
 */
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../../src/main/db/database';
import { openPostgres } from '../../../../src/main/db/postgres/postgres-connection';
import { createTestContext, type TestContext } from '../../../helpers/test-app';
import { dropTestDatabase, newTestDatabase, onPostgres } from '../../../helpers/test-database';

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

  describe('when the server loses a prepared statement', () => {
    let db: Kysely<Database>;
    const warnings: string[] = [];
    const key = 'lost-statements';
    beforeAll(async () => {
      db = openPostgres(await newTestDatabase(key), {
        poolSize: 1,
        onStatementNamesOff: (error) => warnings.push(error.message),
      });
    });
    afterAll(async () => {
      await db.destroy();
      await dropTestDatabase(key);
    });

    /** Prepared statements of the pool's one connection, by their text. */
    const preparedOnServer = async () =>
      (await sql<{ statement: string }>`select statement from pg_prepared_statements`.execute(db)).rows.map(
        (row) => row.statement,
      );

    it('runs the statement again unnamed outside a transaction, and names nothing after', async () => {
      expect((await inverse(4).execute(db)).rows).toEqual([{ q: 0.25 }]);
      await sql`deallocate all`.execute(db);
      expect((await inverse(5).execute(db)).rows).toEqual([{ q: 0.2 }]);
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatch(/prepared statement .* does not exist/);
      expect((await inverse(8).execute(db)).rows).toEqual([{ q: 0.125 }]);
      expect(await preparedOnServer()).toEqual([]);
      expect(warnings).toHaveLength(1);
    });

    it('loses the transaction that met it, and the next one runs unnamed', async () => {
      const fresh = openPostgres(await newTestDatabase(`${key}-2`), {
        poolSize: 1,
        onStatementNamesOff: (error) => warnings.push(error.message),
      });
      try {
        await inverse(4).execute(fresh);
        await sql`deallocate all`.execute(fresh);
        await expect(fresh.transaction().execute((trx) => inverse(5).execute(trx))).rejects.toThrow(
          /prepared statement .* does not exist/,
        );
        expect(warnings).toHaveLength(2);
        const rows = await fresh.transaction().execute(async (trx) => (await inverse(5).execute(trx)).rows);
        expect(rows).toEqual([{ q: 0.2 }]);
      } finally {
        await fresh.destroy();
        await dropTestDatabase(`${key}-2`);
      }
    });
  });
});
