import type { Executor } from '../db/database';

export interface TimelineRow {
  seq: number;
  timestamp: number;
  action: string;
  tokens: number;
}

/**
 * A scan's timeline in order, a chunk at a time (keyset on seq). Each chunk is its own short
 * query, so a slow reader never holds the connection and memory stays flat for any length.
 */
export async function* timelineChunks(db: Executor, scanId: string, chunkSize = 5000): AsyncGenerator<TimelineRow[]> {
  let after = -1;
  for (;;) {
    const rows = await db
      .selectFrom('timeline_entries')
      .select(['seq', 'timestamp', 'action', 'tokens'])
      .where('scan_id', '=', scanId)
      .where('seq', '>', after)
      .orderBy('seq')
      .limit(chunkSize)
      .execute();
    if (rows.length === 0) return;
    yield rows;
    after = rows[rows.length - 1]!.seq;
    if (rows.length < chunkSize) return;
  }
}
