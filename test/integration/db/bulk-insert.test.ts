/**
 * BulkInserter on the run's backend: full and partial chunks land exactly once, values survive
 * the round trip (nulls, quotes, non-ASCII, large integers), and a chunk that fails while another
 * is being filled surfaces at the next wait instead of vanishing.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTimeline } from '../../../src/main/evidence/timeline/timeline-writes.repository';
import {
  BulkInserter,
  ENTRY_SAMPLE,
  SCAN_SAMPLE,
  VIOLATION_SAMPLE,
  withoutForeignKeys,
} from '../../../src/main/db/bulk-insert';
import type { Db, Executor } from '../../../src/main/db/database';
import { inTransaction } from '../../../src/main/db/transaction';
import { openWorkspace, type Workspace } from '../../../src/main/workspace/workspace';
import { dropTestDatabase, testDatabaseFor } from '../../helpers/test-database';

const dataDir = mkdtempSync(join(tmpdir(), 'scandesk-bulk-'));
let workspace: Workspace;
let db: Db;
let owner: string;

beforeAll(async () => {
  workspace = await openWorkspace(dataDir, { database: await testDatabaseFor(dataDir) });
  db = workspace.db;
  owner = (await db.selectFrom('users').select('id').executeTakeFirstOrThrow()).id;
});

afterAll(async () => {
  await workspace.close();
  await dropTestDatabase(dataDir);
  rmSync(dataDir, { recursive: true, force: true });
});

async function insertScan(trx: Executor, id: string): Promise<void> {
  const scans = new BulkInserter(db, trx, 'scans', SCAN_SAMPLE, 1);
  scans.push(id, 1_700_000_000_000, 'tool', 'act', 0, 'completed', 'submitted', null, owner, '{}', 0, 0, 0, 0);
  await scans.flush();
}

describe('BulkInserter', () => {
  it('writes every row of full and partial chunks once, with values intact', async () => {
    const rows = 12_345;
    const action = (seq: number) => (seq % 3 === 0 ? `say "hi" \\ {x,y}\t\n\r\\N é 漢 ${seq}` : `a${seq}`);
    await inTransaction(db, async (trx) => {
      await insertScan(trx, 'scn_bulk');
      const timeline = await createTimeline(trx, 'scn_bulk');
      const entries = new BulkInserter(db, trx, 'timeline_entries', ENTRY_SAMPLE, 100);
      for (let seq = 0; seq < rows; seq++) {
        const written = entries.push(timeline, seq, 2 ** 41 + seq, action(seq), seq * 7);
        if (written) await written;
      }
      await entries.flush();
      expect(entries.rows).toBe(rows);
      const findings = new BulkInserter(db, trx, 'violations', VIOLATION_SAMPLE, 100);
      findings.push('vio_1', 'scn_bulk', 0, 'r', 'high', 'm', null);
      findings.push('vio_2', 'scn_bulk', 1, 'r', 'low', 'NULL', 7);
      await findings.flush();
    });
    const stored = await db
      .selectFrom('timeline_entries')
      .select(['seq', 'timestamp', 'action', 'tokens'])
      .where('timeline_id', '=', (eb) => eb.selectFrom('timelines').select('id').where('scan_id', '=', 'scn_bulk'))
      .orderBy('seq')
      .execute();
    expect(stored).toHaveLength(rows);
    for (const [at, row] of [0, 1, 99, 100, 4999, 5000, rows - 1].map((seq) => [seq, stored[seq]!] as const)) {
      expect(row).toEqual({ seq: at, timestamp: 2 ** 41 + at, action: action(at), tokens: at * 7 });
    }
    const violations = await db
      .selectFrom('violations')
      .select(['id', 'message', 'timeline_index'])
      .where('scan_id', '=', 'scn_bulk')
      .orderBy('id')
      .execute();
    expect(violations).toEqual([
      { id: 'vio_1', message: 'm', timeline_index: null },
      { id: 'vio_2', message: 'NULL', timeline_index: 7 },
    ]);
  });

  it('surfaces a failed chunk and leaves nothing behind', async () => {
    const work = inTransaction(db, async (trx) => {
      await insertScan(trx, 'scn_fail');
      const timeline = await createTimeline(trx, 'scn_fail');
      const entries = new BulkInserter(db, trx, 'timeline_entries', ENTRY_SAMPLE, 100);
      // Every seq twice: the primary key refuses the first chunk that holds a repeat.
      for (let n = 0; n < 20_000; n++) {
        const written = entries.push(timeline, n >> 1, 0, 'a', 0);
        if (written) await written;
      }
      await entries.flush();
    });
    await expect(work).rejects.toThrow(/unique|duplicate/i);
    const left = await db.selectFrom('scans').select('id').where('id', '=', 'scn_fail').execute();
    expect(left).toEqual([]);
  });

  it('refuses a broken reference in a load whose foreign keys come back at its end, and stores none of it', async () => {
    const broken = (id: string) => async (trx: Executor) => {
      const findings = new BulkInserter(db, trx, 'violations', VIOLATION_SAMPLE, 100);
      findings.push(id, 'scn_missing', 0, 'r', 'high', 'm', null);
      await findings.flush();
    };
    await expect(
      inTransaction(db, (trx) => withoutForeignKeys(trx, ['violations'], () => broken('vio_load')(trx))),
    ).rejects.toThrow(/foreign key/i);
    // The keys are back for every later write.
    await expect(inTransaction(db, broken('vio_later'))).rejects.toThrow(/foreign key/i);
    const left = await db.selectFrom('violations').select('id').where('id', 'in', ['vio_load', 'vio_later']).execute();
    expect(left).toEqual([]);
  });
});
