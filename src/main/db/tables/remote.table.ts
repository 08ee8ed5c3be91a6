import type { ColumnType, Insertable, Selectable, Updateable } from 'kysely';

/** 'scandesk': a Scandesk server, with the change feed; 'upstream': the upstream interface alone. */
export type RemoteKind = 'scandesk' | 'upstream';

export interface RemoteTable {
  id: string;
  /** What the user calls it (`scandesk sync team`): unique in the store. */
  name: string;
  url: string;
  /** The local user the remote fills: pulled scans are theirs; their submits are pushed. */
  user_id: string;
  kind: RemoteKind | null;
  remote_user_id: string | null;
  ca_pem: string | null;
  /** 0 or 1. */
  allow_insecure_http: ColumnType<number, number | undefined, number>;
  /** 0 or 1: sync every `interval_minutes` and when the network returns, while a server runs. */
  background: ColumnType<number, number | undefined, number>;
  interval_minutes: ColumnType<number, number | undefined, number>;
  /** Epoch ms: the user's submits from then on are pushed. */
  push_since: number;
  /** Epoch ms. */
  created_at: number;
  /** The pull's position, opaque outside the pull; written in the transaction that stored its batch. */
  cursor: ColumnType<string | null, string | null | undefined, string | null>;
  last_sync_at: ColumnType<number | null, number | null | undefined, number | null>;
  /** JSON of the last sync's summary. */
  last_sync: ColumnType<string | null, string | null | undefined, string | null>;
  lease_owner: ColumnType<string | null, string | null | undefined, string | null>;
  /** Epoch ms after which another process may take the lease. */
  lease_until: ColumnType<number | null, number | null | undefined, number | null>;
}

export interface SyncPushTable {
  remote_id: string;
  /** The local scan. */
  scan_id: string;
  /** Its id on the remote, once the remote acknowledged it. */
  remote_scan_id: string | null;
  /** Epoch ms of the acknowledgement. */
  pushed_at: number | null;
  /** The remote's verdict under its own policy, as last heard. */
  remote_violation_count: number | null;
  /** 0 none … 4 critical, as scans.worst_severity. */
  remote_worst_severity: number | null;
}

export type RemoteRow = Selectable<RemoteTable>;
export type NewRemote = Insertable<RemoteTable>;
export type RemoteUpdate = Updateable<RemoteTable>;
export type SyncPushRow = Selectable<SyncPushTable>;
