/**
 * Regression (found by test/e2e/concurrency.test.ts): with another connection writing to the same
 * database, a submit answered 500 `SQLITE_BUSY` at once, the busy timeout notwithstanding. A
 * transaction that began as a reader could not become a writer once the other connection had
 * committed after its first read. Transactions now take the write lock when they begin.
 */
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../helpers/test-app';
import { onPostgres } from '../../helpers/test-database';

let ctx: TestContext | undefined;

afterEach(async () => {
  await ctx?.close();
  ctx = undefined;
});

// SQLite's own locking; on PostgreSQL, test/e2e/concurrency and the multi-process test cover it.
describe.skipIf(onPostgres)('write transactions and other connections', () => {
  it('a transaction that reads first still writes when another connection tries to commit in between', async () => {
    ctx = await createTestContext();
    const { db } = ctx;
    const other = new Database(join(ctx.dataDir, 'scandesk.db'));
    // No waiting on this side: it must find the lock taken, not take it.
    other.pragma('busy_timeout = 0');
    let otherOutcome = '';
    try {
      await db.transaction().execute(async (trx) => {
        await trx.selectFrom('users').select('id').execute();
        try {
          other.prepare('UPDATE users SET name = name').run();
          otherOutcome = 'committed';
        } catch (error) {
          otherOutcome = (error as { code?: string }).code ?? String(error);
        }
        await trx.updateTable('users').set({ name: 'local' }).where('name', '=', 'local').execute();
      });
    } finally {
      other.close();
    }
    expect(otherOutcome).toBe('SQLITE_BUSY');
  });
});
