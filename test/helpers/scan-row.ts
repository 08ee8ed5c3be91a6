import type { Db } from '../../src/main/db/database';

/** A scan row to hang timeline entries on; its other fields do not matter here. */
export const insertScanRow = (db: Db, id: string, ownerId: string, requestCount: number) =>
  db
    .insertInto('scans')
    .values({
      id,
      created_at: 0,
      tool: 't',
      action: 'a',
      tokens: 0,
      status: 'completed',
      source: 'submitted',
      organization_id: null,
      submitted_by: ownerId,
      token_breakdown: '{}',
      request_count: requestCount,
      violation_count: 0,
      worst_severity: 0,
      change_seq: 0,
    })
    .execute();
