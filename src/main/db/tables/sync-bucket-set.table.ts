import type { Insertable, Selectable } from 'kysely';

/** A set of change-feed buckets a cursor names by digest (docs/sync.md#change-feed-and-cursor). */
export interface SyncBucketSetTable {
  user_id: string;
  /** 22 URL-safe characters of SHA-256 over the sorted keys. */
  digest: string;
  /** JSON array of the bucket keys: "" (the user's own scans) and organization ids. */
  keys: string;
  /** Epoch ms: when a cursor last named this set as new; the newest few per user are kept. */
  used_at: number;
}

export type SyncBucketSetRow = Selectable<SyncBucketSetTable>;
export type NewSyncBucketSet = Insertable<SyncBucketSetTable>;
