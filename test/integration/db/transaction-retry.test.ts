/**
 * inTransaction on PostgreSQL: two serializable transactions that each read what the other
 * writes cannot both commit; the loser is rolled back and run again from the start, and then
 * sees the winner's row. On SQLite, transactions hold the write lock from BEGIN and never race.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { classifyDbError } from '../../../src/main/db/db-errors';
import { inTransaction, MAX_ATTEMPTS } from '../../../src/main/db/transaction';
import { createTestContext, type TestContext } from '../../helpers/test-app';
import { onPostgres } from '../../helpers/test-database';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

/** Both transactions have read before either writes: a classic write skew. */
function barrier(parties: number): () => Promise<void> {
  let waiting = 0;
  let release!: () => void;
  const all = new Promise<void>((resolve) => (release = resolve));
  return () => {
    waiting += 1;
    if (waiting === parties) release();
    return all;
  };
}

describe.runIf(onPostgres)('inTransaction on PostgreSQL', () => {
  it('runs the loser of a write skew again, which then sees the winner’s write', async () => {
    const bothRead = barrier(2);
    const attempts: string[] = [];
    const createIfNone = (name: string) =>
      inTransaction(ctx.db, async (trx) => {
        attempts.push(name);
        const existing = await trx.selectFrom('organizations').select('name').where('plan', '=', 'team').execute();
        if (attempts.length <= 2) await bothRead();
        if (existing.length > 0) return `${name} found ${existing[0]!.name}`;
        await trx
          .insertInto('organizations')
          .values({ id: `org_${name}`, name, plan: 'team', created_at: new Date().toISOString() })
          .execute();
        return `${name} created`;
      });
    const outcomes = await Promise.all([createIfNone('left'), createIfNone('right')]);
    expect(outcomes.filter((outcome) => outcome.endsWith('created'))).toHaveLength(1);
    expect(outcomes.filter((outcome) => outcome.includes('found'))).toHaveLength(1);
    expect(attempts).toHaveLength(3);
    const rows = await ctx.db.selectFrom('organizations').select('id').where('plan', '=', 'team').execute();
    expect(rows).toHaveLength(1);
  });

  it(`gives up after ${MAX_ATTEMPTS} attempts and lets the lost race through, classified`, async () => {
    let attempts = 0;
    const error = await inTransaction(ctx.db, async () => {
      attempts += 1;
      throw Object.assign(new Error('could not serialize access'), { code: '40001' });
    }).catch((thrown: unknown) => thrown);
    expect(attempts).toBe(MAX_ATTEMPTS);
    expect(classifyDbError(error)).toBe('serialization');
  });

  it('never runs a transaction again for an error that is not a lost race', async () => {
    let attempts = 0;
    await expect(
      inTransaction(ctx.db, async () => {
        attempts += 1;
        throw new Error('a rule of ours');
      }),
    ).rejects.toThrow('a rule of ours');
    expect(attempts).toBe(1);
  });
});
