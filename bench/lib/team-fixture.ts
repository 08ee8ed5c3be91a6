/**
 * The team store of the sync benchmark: one organization owned by the workspace owner, filled
 * with small scans (10-entry timelines) straight into the store through BulkInserter (the API
 * would take minutes for 100,000), each batch in one transaction with one change seq, as an
 * import's closing transaction writes them, so the change feed lists them like any other scans.
 */
import { BulkInserter, ENTRY_SAMPLE, relaxTransaction, SCAN_SAMPLE } from '../../src/main/db/bulk-insert';
import { nextChangeSeq } from '../../src/main/db/change-sequence';
import type { Db } from '../../src/main/db/database';
import { openDatabase } from '../../src/main/db/open-database';
import { inTransaction } from '../../src/main/db/transaction';
import { newTimelineIds, timelinesInserter } from '../../src/main/evidence/timeline/timeline-writes.repository';
import { openBulkStore } from './bulk-store';
import { ulid } from 'ulid';

export const TEAM_ORGANIZATION_ID = 'org_BENCHSYNCTEAM0000000000000';
export const ENTRIES_PER_SCAN = 10;
const START_MS = Date.UTC(2026, 9, 1);
const ACTIONS = ['chat.completion', 'code.completion', 'file.read', 'tool.call'];
const BATCH = 5_000;
const CHUNK_ROWS = 500;

/** `count` scans numbered from `first`, in the team organization, submitted by `ownerId`. */
async function insertScans(db: Db, ownerId: string, first: number, count: number): Promise<void> {
  for (let start = first; start < first + count; start += BATCH) {
    const end = Math.min(first + count, start + BATCH);
    await inTransaction(
      db,
      async (trx) => {
        await relaxTransaction(trx);
        const scans = new BulkInserter(db, trx, 'scans', SCAN_SAMPLE, CHUNK_ROWS);
        const timelines = timelinesInserter(db, trx, CHUNK_ROWS);
        const entries = new BulkInserter(db, trx, 'timeline_entries', ENTRY_SAMPLE, CHUNK_ROWS * ENTRIES_PER_SCAN);
        const changeSeq = await nextChangeSeq(trx);
        const ids: string[] = [];
        for (let n = start; n < end; n++) {
          // A ULID of its time, as a scan submitted to a Scandesk store has (src/main/ids.ts).
          const id = `scan_${ulid(START_MS + n * 1000)}`;
          ids.push(id);
          // entry tokens are 10 + seq: the scan's tokens are their sum, as a submit checks.
          const tokens = ENTRIES_PER_SCAN * 10 + (ENTRIES_PER_SCAN * (ENTRIES_PER_SCAN - 1)) / 2;
          const written = scans.push(
            id,
            START_MS + n * 1000,
            'cursor',
            ACTIONS[n % ACTIONS.length]!,
            tokens,
            'completed',
            'submitted',
            TEAM_ORGANIZATION_ID,
            ownerId,
            '{}',
            ENTRIES_PER_SCAN,
            0,
            0,
            changeSeq,
          );
          if (written) await written;
        }
        await scans.flush();
        const timelineIds = await newTimelineIds(trx, ids.length);
        for (let i = 0; i < ids.length; i++) {
          const written = timelines.push(timelineIds[i]!, ids[i]!);
          if (written) await written;
        }
        await timelines.flush();
        for (let i = 0; i < ids.length; i++) {
          const at = START_MS + (start + i) * 1000;
          for (let seq = 0; seq < ENTRIES_PER_SCAN; seq++) {
            const written = entries.push(timelineIds[i]!, seq, at + seq * 50, ACTIONS[seq % ACTIONS.length]!, 10 + seq);
            if (written) await written;
          }
        }
        await entries.flush();
      },
      { isolation: 'read committed' },
    );
  }
}

export interface TeamStore {
  ownerId: string;
  /** Writes `count` more scans into the organization (numbered on from the last), as the team would meanwhile. */
  addScans(count: number): Promise<void>;
}

/** Creates the team's store in `dataDir` on PostgreSQL `url` and fills its organization with `scans` scans. */
export async function createTeamStore(dataDir: string, url: string, scans: number): Promise<TeamStore> {
  const store = await openBulkStore(dataDir, url);
  const { ownerId } = store;
  try {
    const at = new Date(START_MS).toISOString();
    await store.db
      .insertInto('organizations')
      .values({ id: TEAM_ORGANIZATION_ID, name: 'Bench team', plan: 'free', created_at: at })
      .execute();
    await store.db
      .insertInto('memberships')
      .values({ organization_id: TEAM_ORGANIZATION_ID, user_id: ownerId, role: 'owner', joined_at: at })
      .execute();
    await insertScans(store.db, ownerId, 0, scans);
  } finally {
    await store.close();
  }
  let next = scans;
  return {
    ownerId,
    async addScans(count) {
      const db = openDatabase({ kind: 'postgres', url });
      try {
        await insertScans(db, ownerId, next, count);
        next += count;
      } finally {
        await db.destroy();
      }
    },
  };
}
