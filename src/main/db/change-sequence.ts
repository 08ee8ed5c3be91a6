import { sql } from 'kysely';
import type { Executor } from './database';
import { ReusableQuery } from './reusable-query';

// The store's change counter (docs/contract/api.md#sync): one row, bumped inside the transaction
// that writes. On PostgreSQL the UPDATE takes the row's lock until that transaction ends, so a
// second writer waits for the first to commit before it gets the next value: seqs are handed out
// in commit order, and a reader that sees seq n sees every smaller one. The price is that writers
// of scans are serialized from the bump to their commit, so a writer takes it as late as it can,
// but before its first write of a row anybody else may lock: every scan and violation write moves
// rollup rows by trigger, and a writer holding one of those while it waits for the counter could
// deadlock with one holding the counter while it waits for that row. Rows nobody else can see or
// lock (an import's pyramid cells) may go before it. On SQLite the writer holds the store's lock
// from BEGIN anyway, so the bump costs one small statement.

const BUMP = new ReusableQuery((db) =>
  db
    .updateTable('change_sequence')
    .set({ last_seq: sql`last_seq + 1` })
    .returning('last_seq'),
);

/**
 * The next change seq, for the scans that the transaction `trx` stores or changes. It counts as
 * taken only if `trx` commits; rows written by one transaction may share one.
 */
export async function nextChangeSeq(trx: Executor): Promise<number> {
  const { rows } = await BUMP.execute(trx, []);
  const row = rows[0];
  if (!row) throw new Error('the store has no change sequence (its migrations did not run)');
  return Number(row.last_seq);
}

/** This store's sequence: its id (named in feed cursors) and the last value handed out. */
export async function readChangeSequence(db: Executor): Promise<{ id: string; lastSeq: number }> {
  const row = await db.selectFrom('change_sequence').select(['id', 'last_seq']).executeTakeFirstOrThrow();
  return { id: row.id, lastSeq: Number(row.last_seq) };
}

/**
 * After a store copy: the copied scans kept their seqs, so the counter resumes past the largest.
 * The copy keeps its own sequence id: it is another store, and cursors of the original start over.
 */
export async function resumeChangeSequence(trx: Executor): Promise<void> {
  await trx
    .updateTable('change_sequence')
    .set((eb) => ({
      last_seq: eb.fn.coalesce(
        eb.selectFrom('scans').select((s) => s.fn.max('change_seq').as('m')),
        sql.lit(0),
      ),
    }))
    .execute();
}
