/**
 * copyOutRows against the run's PostgreSQL: the rows of a query by binary COPY, and a COPY that
 * fails half-way leaves its connection as good as any other.
 */
import { CompiledQuery } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyOutRows } from '../../../../src/main/db/postgres/copy-out-rows';
import { poolOf } from '../../../../src/main/db/postgres/postgres-connection';
import { createTestContext, type TestContext } from '../../../helpers/test-app';
import { onPostgres } from '../../../helpers/test-database';

describe.runIf(onPostgres)('copyOutRows', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext();
  });
  afterAll(() => ctx.close());

  const series = (sqlText: string, ...parameters: unknown[]) => CompiledQuery.raw(sqlText, parameters);

  it('reads every row of the query, its integer parameters written in', async () => {
    const rows = await copyOutRows(
      ctx.db,
      series(
        `SELECT n::int, (n * 1000000000000)::bigint, 'row ' || n || ' é' FROM generate_series($1::int, $2::int) AS n`,
        -3,
        200_000,
      ),
      3,
    );
    expect(rows.length).toBe(200_004);
    expect([rows.int4(0, 0), rows.int8(0, 1), rows.text(0, 2)]).toEqual([-3, -3e12, 'row -3 é']);
    expect([rows.int4(200_003, 0), rows.int8(200_003, 1), rows.text(200_003, 2)]).toEqual([
      200_000,
      2e17,
      'row 200000 é',
    ]);
  });

  it('refuses a parameter that is not an integer, before anything is sent', async () => {
    await expect(copyOutRows(ctx.db, series('SELECT $1::text', "x'); DROP TABLE scans; --"), 1)).rejects.toThrow(
      /must be integers/,
    );
    await expect(copyOutRows(ctx.db, series('SELECT $1::float8', 1.5), 1)).rejects.toThrow(/must be integers/);
  });

  it('rejects with the backend error of a COPY that fails half-way, and the pool goes on working', async () => {
    const pool = poolOf(ctx.db);
    await expect(
      copyOutRows(ctx.db, series('SELECT 1 / (n - 150000) FROM generate_series(1, 200000) AS n'), 1),
    ).rejects.toThrow(/division by zero/);
    // Every connection of the pool, the failed COPY's among them, answers.
    const clients = await Promise.all(Array.from({ length: pool.totalCount || 1 }, () => pool.connect()));
    try {
      for (const client of clients) expect((await client.query('SELECT 41 + 1 AS n')).rows).toEqual([{ n: 42 }]);
    } finally {
      for (const client of clients) client.release();
    }
    const rows = await copyOutRows(ctx.db, series('SELECT n FROM generate_series(1, 3) AS n'), 1);
    expect(rows.length).toBe(3);
  });
});
