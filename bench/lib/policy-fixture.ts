/**
 * The data of the policy-impact benchmark: one organization owned by the workspace owner, with
 * `scans` submitted scans spread over a year, each with a timeline of `entries` entries, loaded
 * straight into the store (the API would take minutes).
 */
import { BulkInserter, ENTRY_SAMPLE, SCAN_SAMPLE } from '../../src/main/db/bulk-insert';
import { nextChangeSeq } from '../../src/main/db/change-sequence';
import { inTransaction } from '../../src/main/db/transaction';
import { createTimeline } from '../../src/main/evidence/timeline/timeline-writes.repository';
import { seededRandom } from '../../test/fixtures/seeded-random';
import { openBulkStore } from './bulk-store';

export const YEAR_START = Date.UTC(2025, 0, 1);
const DAY_MS = 86_400_000;
const ACTIONS = ['chat.completion', 'code.completion', 'embedding', 'file.read', 'tool.call', 'web.search'];
const CHUNK_ROWS = 100;
export const ORGANIZATION_ID = 'org_BENCHPOLICYIMPACT0000000000';

export async function createPolicyDataDir(
  dataDir: string,
  scans: number,
  entries: number,
  database?: string,
): Promise<void> {
  const store = await openBulkStore(dataDir, database);
  const { db, ownerId } = store;
  try {
    const at = new Date(YEAR_START).toISOString();
    await db
      .insertInto('organizations')
      .values({ id: ORGANIZATION_ID, name: 'Bench', plan: 'free', created_at: at })
      .execute();
    await db
      .insertInto('memberships')
      .values({ organization_id: ORGANIZATION_ID, user_id: ownerId, role: 'owner', joined_at: at })
      .execute();
    const next = seededRandom(scans * entries);
    for (let n = 0; n < scans; n++) {
      const id = `scan_BENCHPOLICY${String(n).padStart(15, '0')}`;
      const createdAt = YEAR_START + Math.floor((n * 360 * DAY_MS) / scans);
      await inTransaction(db, async (trx) => {
        const scanRows = new BulkInserter(db, trx, 'scans', SCAN_SAMPLE, 1);
        const entryRows = new BulkInserter(db, trx, 'timeline_entries', ENTRY_SAMPLE, CHUNK_ROWS);
        scanRows.push(
          id,
          createdAt,
          'bench',
          ACTIONS[0]!,
          0,
          'completed',
          'submitted',
          ORGANIZATION_ID,
          ownerId,
          '{}',
          entries,
          0,
          0,
          await nextChangeSeq(trx),
        );
        await scanRows.flush();
        const timeline = await createTimeline(trx, id);
        let tokens = 0;
        for (let seq = 0; seq < entries; seq++) {
          const count = 1 + Math.floor(next() * 4000);
          tokens += count;
          const written = entryRows.push(
            timeline,
            seq,
            createdAt + seq * 250,
            ACTIONS[Math.floor(next() * ACTIONS.length)]!,
            count,
          );
          if (written) await written;
        }
        await entryRows.flush();
        await trx.updateTable('scans').set({ tokens }).where('id', '=', id).execute();
      });
    }
  } finally {
    await store.close();
  }
}
