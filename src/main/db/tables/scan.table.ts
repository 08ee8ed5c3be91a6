import type { ColumnType, Insertable, Selectable } from 'kysely';
import type { ScanSource, ScanStatus } from '../../../shared/api/scans';

export interface ScanTable {
  id: string;
  /** Epoch milliseconds. */
  created_at: number;
  tool: string;
  action: string;
  tokens: number;
  status: ScanStatus;
  source: ScanSource;
  organization_id: string | null;
  /** The user who submitted or imported the scan: it stays visible to them. */
  submitted_by: string;
  /** JSON object of token type → count. */
  token_breakdown: string;
  /** Denormalized from timeline_entries and violations so that lists never aggregate. */
  request_count: number;
  violation_count: number;
  /** 0 none, 1 low, 2 medium, 3 high, 4 critical: the list's badge without a join. */
  worst_severity: number;
  /**
   * An imported scan's id in its package, which its stored id (derived for the importer) is not;
   * null for a submitted scan. Optional on insert: only an import writes it.
   */
  package_id: ColumnType<string | null, string | null | undefined, string | null>;
  /** What made that package (a format-1 manifest's `generator`), where the package says. */
  package_origin: ColumnType<string | null, string | null | undefined, string | null>;
  /** A pulled scan's remote (docs/sync.md); null for a scan made here. */
  origin_remote_id: ColumnType<string | null, string | null | undefined, string | null>;
  /** A pulled scan's id on that remote. */
  origin_id: ColumnType<string | null, string | null | undefined, string | null>;
  /**
   * The store change that last touched the scan: taken from `nextChangeSeq` by the transaction
   * that stores it or re-evaluates its violations (docs/contract/api.md#sync). Required on
   * insert, so that every writer says where it takes it.
   */
  change_seq: number;
}

export type ScanRow = Selectable<ScanTable>;
export type NewScan = Insertable<ScanTable>;
/** A scan row made before the transaction that stores it, which gives it its `change_seq`. */
export type ScanDraft = Omit<NewScan, 'change_seq'>;

/** The store's one change counter (db/change-sequence.ts): a single row. */
export interface ChangeSequenceTable {
  /** Names this store's sequence: a feed cursor from elsewhere is refused by it. */
  id: string;
  /** The last value handed out. */
  last_seq: number;
}
