/**
 * Scans with long timelines, written straight into the store through BulkInserter: a million entries
 * load in seconds, where the API would take minutes (and caps a submit at 100,000).
 */
import { inTransaction } from '../../src/main/db/transaction';
import type { Db } from '../../src/main/db/database';
import { BulkInserter, ENTRY_SAMPLE, SCAN_SAMPLE, VIOLATION_SAMPLE } from '../../src/main/db/bulk-insert';
import { nextChangeSeq } from '../../src/main/db/change-sequence';
import type { StoredTimelineEntry } from '../../src/main/evidence/timeline/timeline-entry';
import { createTimeline } from '../../src/main/evidence/timeline/timeline-writes.repository';
import type { Severity } from '../../src/shared/api/scans';

export interface StoredViolationSpec {
  id: string;
  rule: string;
  severity: Severity;
  message: string;
  timeline_index: number | null;
}

export interface EvidenceScanSpec {
  id: string;
  submittedBy: string;
  entries: number;
  /** Entry `seq`; by default one a second from 2026-11-01, six actions, varied tokens. */
  entryAt?: (seq: number) => StoredTimelineEntry;
  /** The token_breakdown column as stored (JSON text). */
  tokenBreakdown?: string;
  violations?: readonly StoredViolationSpec[];
}

const START_MS = Date.UTC(2026, 10, 1);
const ACTIONS = ['chat.completion', 'code.completion', 'embedding', 'file.read', 'tool.call', 'web.search'];

export const defaultEntry = (seq: number): StoredTimelineEntry => ({
  timestamp: START_MS + seq * 1000,
  action: ACTIONS[seq % ACTIONS.length]!,
  tokens: (seq * 7919) % 4000,
});

/** Inserts one scan with its timeline and violations, in one transaction. */
export async function insertEvidenceScan(db: Db, spec: EvidenceScanSpec): Promise<void> {
  const entryAt = spec.entryAt ?? defaultEntry;
  const violations = spec.violations ?? [];
  await inTransaction(db, async (trx) => {
    const scans = new BulkInserter(db, trx, 'scans', SCAN_SAMPLE, 1);
    const entries = new BulkInserter(db, trx, 'timeline_entries', ENTRY_SAMPLE, 100);
    const findings = new BulkInserter(db, trx, 'violations', VIOLATION_SAMPLE, 1);
    const first = spec.entries > 0 ? entryAt(0) : { timestamp: START_MS, action: 'none', tokens: 0 };
    // The scan first (foreign keys); its token total is patched in once summed.
    scans.push(
      spec.id,
      first.timestamp,
      'fixture',
      first.action,
      0,
      'completed',
      'submitted',
      null,
      spec.submittedBy,
      spec.tokenBreakdown ?? '{}',
      spec.entries,
      violations.length,
      0,
      await nextChangeSeq(trx),
    );
    await scans.flush();
    let tokens = 0;
    const timeline = spec.entries > 0 ? await createTimeline(trx, spec.id) : undefined;
    for (let seq = 0; seq < spec.entries; seq++) {
      const entry = seq === 0 ? first : entryAt(seq);
      tokens += entry.tokens;
      await entries.push(timeline!, seq, entry.timestamp, entry.action, entry.tokens);
    }
    await entries.flush();
    for (const [seq, v] of violations.entries()) {
      await findings.push(v.id, spec.id, seq, v.rule, v.severity, v.message, v.timeline_index);
    }
    await findings.flush();
    await trx.updateTable('scans').set({ tokens }).where('id', '=', spec.id).execute();
  });
}

/** A small scan whose strings and numbers exercise every escaping and formatting path of the JSON. */
export const ODD_SCAN = {
  entries: [
    { timestamp: Date.UTC(1969, 11, 31, 23, 59, 59, 999), action: 'read', tokens: 0 },
    { timestamp: Date.UTC(2026, 10, 1), action: 'say "hi" \\ back', tokens: 1 },
    { timestamp: Date.UTC(2026, 10, 1, 0, 0, 0, 1), action: 'emoji 😀 漢字 é', tokens: 2 ** 31 },
    { timestamp: Date.UTC(2026, 10, 1, 23, 59, 59, 999), action: 'line\u2028sep\u2029end', tokens: 2 ** 40 },
    { timestamp: Date.UTC(2100, 0, 1, 12), action: 'x', tokens: 7 },
  ],
  tokenBreakdown: '{"input":10,"out\\nput":3,"漢":5,"2":1,"1":0,"cached \\"q\\"":4}',
  violations: [
    { id: 'vio_G1', rule: 'action.blocked', severity: 'high', message: 'blocked "say"', timeline_index: 1 },
    { id: 'vio_G2', rule: 'tokens.scan_limit', severity: 'medium', message: 'über 😀', timeline_index: null },
    { id: 'vio_G3', rule: 'tokens.request_limit', severity: 'low', message: 'big\nline', timeline_index: 4 },
  ] satisfies StoredViolationSpec[],
};

export function insertOddScan(db: Db, id: string, submittedBy: string): Promise<void> {
  return insertEvidenceScan(db, {
    id,
    submittedBy,
    entries: ODD_SCAN.entries.length,
    entryAt: (seq) => ODD_SCAN.entries[seq]!,
    tokenBreakdown: ODD_SCAN.tokenBreakdown,
    violations: ODD_SCAN.violations,
  });
}
