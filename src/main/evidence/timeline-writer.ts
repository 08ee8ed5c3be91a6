import type SQLite from 'better-sqlite3';
import type { Db } from '../db/database';
import { BulkInserter, ENTRY_SAMPLE } from '../db/bulk-insert';
import type { StoredEntry } from './package-validator';

/** Rows per INSERT, as the demo loader uses. */
const ROWS = 100;

/**
 * Appends timeline rows through BulkInserter: one multi-row INSERT compiled by Kysely and
 * prepared once per import. Building the query per chunk cost more than SQLite's insert, and
 * preparing it per chunk left ~0.5 KB of native statement memory per row that only a garbage
 * collection frees, which the little JS garbage of this loop rarely triggers.
 *
 * Its statements run on the raw handle: create and use it only inside the import's
 * transaction, which holds Kysely's one connection, so they are part of that transaction.
 */
export class TimelineWriter {
  private readonly rows: BulkInserter<'timeline_entries'>;
  private scanId = '';
  private seq = 0;

  constructor(sqlite: SQLite.Database, db: Db) {
    this.rows = new BulkInserter(sqlite, db, 'timeline_entries', ENTRY_SAMPLE, ROWS);
  }

  /** Starts the timeline of another scan, from seq 0. */
  begin(scanId: string): void {
    this.scanId = scanId;
    this.seq = 0;
  }

  write(entries: readonly StoredEntry[]): void {
    for (const entry of entries) {
      // ENTRY_SAMPLE's key order.
      this.rows.push(this.scanId, this.seq++, entry.timestamp, entry.action, entry.tokens);
    }
  }

  /** Writes the scan's last, partial chunk. */
  end(): void {
    this.rows.flush();
  }
}
