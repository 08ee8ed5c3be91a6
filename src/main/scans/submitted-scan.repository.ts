import { CompiledQuery } from 'kysely';
import {
  type DeferredWrites,
  deferredWritesOf,
  dialectOf,
  type Executor,
  type NewScan,
  type NewViolation,
  nextChangeSeq,
  SCAN_SAMPLE_COLUMNS,
  VIOLATION_SAMPLE,
} from '../db/index';
import type { StoredTimelineEntry } from '../evidence/timeline/timeline-entry';
import { insertTimeline, insertTimelines } from '../evidence/timeline/timeline-writes.repository';
import * as repo from './scans.repository';

// A submit's writes. Every statement of a group commit is a round trip on the batch's one
// connection, and the batch's works run one after another on it: on PostgreSQL, where a round trip
// crosses to another process, the number of statements per submit bounds how many submits a
// second one server stores. There the change seq, the scan row, its timeline and the timeline's
// entries are one statement; SQLite, in process, keeps its small prepared ones. In a group commit
// whose works run together, submits wait for the batch's end and go in together (SubmittedScans).

/** The scan's columns but its change seq, in SCAN_SAMPLE_COLUMNS' order. */
const COLUMNS = SCAN_SAMPLE_COLUMNS.filter((column) => column !== 'change_seq');

const SCAN_ROW = `with seq as (update change_sequence set last_seq = last_seq + 1 returning last_seq),
  scan as (insert into scans (${COLUMNS.map((column) => `"${column}"`).join(', ')}, change_seq)
    values (${COLUMNS.map((_, i) => `$${i + 1}`).join(', ')}, (select last_seq from seq))
    returning id, change_seq)`;

/** The bump and the scan row alone (a submit with a key stores the key between them and the timeline). */
const PG_SCAN = `${SCAN_ROW} select change_seq from scan`;

/**
 * The bump, the scan row, its timeline and the entries, one statement: an AFTER trigger (the
 * rollups, the foreign keys) runs at its end and sees all of it; the UPDATE of the counter runs
 * before the scan row's insert, which reads its value, so the counter's lock is still taken before
 * any rollup row's (see change-sequence.ts).
 */
const PG_SCAN_WITH_TIMELINE = `${SCAN_ROW},
  timeline as (insert into timelines (scan_id) select id from scan returning id),
  entries as (
    insert into timeline_entries (timeline_id, seq, "timestamp", action, tokens)
    select timeline.id, entry.seq, entry.at, entry.action, entry.tokens
    from timeline, unnest($${COLUMNS.length + 1}::int[], $${COLUMNS.length + 2}::bigint[], $${COLUMNS.length + 3}::text[], $${COLUMNS.length + 4}::bigint[])
      as entry(seq, at, action, tokens)
  )
  select change_seq from scan`;

/**
 * Stores a submitted scan (`scan`, its change seq taken here, last before the first write) and,
 * when `timeline` is given, its entries seq numbered from 0 in order; answers the change seq.
 * Without `timeline` the caller stores the timeline itself (insertTimeline).
 */
export async function insertSubmittedScan(
  trx: Executor,
  scan: SubmittedScanRow,
  timeline: readonly StoredTimelineEntry[] | null,
): Promise<number> {
  if (dialectOf(trx) !== 'postgres') {
    const changeSeq = await nextChangeSeq(trx);
    await repo.insertScans(trx, [{ ...scan, change_seq: changeSeq }]);
    if (timeline) await insertTimeline(trx, scan.id, timeline);
    return changeSeq;
  }
  const values: unknown[] = COLUMNS.map((column) => scan[column]);
  let text = PG_SCAN;
  if (timeline && timeline.length > 0) {
    text = PG_SCAN_WITH_TIMELINE;
    values.push(
      timeline.map((_, seq) => seq),
      timeline.map((entry) => entry.timestamp),
      timeline.map((entry) => entry.action),
      timeline.map((entry) => entry.tokens),
    );
  }
  const { rows } = await trx.executeQuery<{ change_seq: number | string }>(CompiledQuery.raw(text, values));
  return Number(rows[0]!.change_seq);
}

/** A stored scan's change seq, known once the writes of its transaction are in: read it after the batch committed. */
export type ChangeSeqOf = () => number;

/** A submitted scan's row but its change seq, which its store takes. */
export type SubmittedScanRow = Omit<NewScan, 'change_seq'>;

/**
 * Stores a submitted scan, its timeline (entries seq numbered from 0 in order, not empty) and its
 * violations: at once, or, in a group commit whose works run together, at the batch's end with the
 * batch's other submits (SubmittedScans).
 */
export async function storeSubmittedScan(
  trx: Executor,
  scan: SubmittedScanRow,
  timeline: readonly StoredTimelineEntry[],
  violations: readonly NewViolation[],
): Promise<ChangeSeqOf> {
  const batch = deferredWritesOf(trx, SubmittedScans, () => new SubmittedScans(trx));
  if (batch) return batch.add(scan, timeline, violations);
  const changeSeq = await insertSubmittedScan(trx, scan, timeline);
  await repo.insertViolations(trx, violations);
  return () => changeSeq;
}

const VIOLATION_COLUMNS = Object.keys(VIOLATION_SAMPLE);

/**
 * A batch's submits in one statement: one change seq for all of them (rows of one transaction may
 * share one), the scans and violations as JSON arrays read as rows of their tables, the entries as
 * arrays. Each statement trigger then runs once for the batch and updates each rollup row once,
 * and the rows they lock (the counter first, as in PG_SCAN_WITH_TIMELINE) are held from this
 * statement to the commit, not from the batch's first submit.
 */
const PG_BATCH = `with seq as (update change_sequence set last_seq = last_seq + 1 returning last_seq),
  scan as (insert into scans (${COLUMNS.map((column) => `"${column}"`).join(', ')}, change_seq)
    select ${COLUMNS.map((column) => `s."${column}"`).join(', ')}, (select last_seq from seq)
    from json_populate_recordset(null::scans, $1::json) as s
    returning id),
  timeline as (insert into timelines (scan_id) select id from scan returning id, scan_id),
  entries as (
    insert into timeline_entries (timeline_id, seq, "timestamp", action, tokens)
    select timeline.id, entry.seq, entry.at, entry.action, entry.tokens
    from unnest($2::text[], $3::int[], $4::bigint[], $5::text[], $6::bigint[]) as entry(scan_id, seq, at, action, tokens)
      join timeline on timeline.scan_id = entry.scan_id
  ),
  violation as (
    insert into violations (${VIOLATION_COLUMNS.map((column) => `"${column}"`).join(', ')})
    select ${VIOLATION_COLUMNS.map((column) => `v."${column}"`).join(', ')}
    from json_populate_recordset(null::violations, $7::json) as v
  )
  select last_seq from seq`;

/**
 * The submits of one group commit, written together at its end with one change seq: on
 * PostgreSQL in one statement (PG_BATCH), on SQLite in a multi-row INSERT per table and chunk. A
 * statement per submit and table had cost SQLite's server more than the rows: 3,114 → 3,702
 * req/s, paired (docs/benchmarks.md).
 */
class SubmittedScans implements DeferredWrites {
  private readonly scans: SubmittedScanRow[] = [];
  private readonly timelines: (readonly StoredTimelineEntry[])[] = [];
  private readonly violations: NewViolation[] = [];
  private changeSeq: number | undefined;

  constructor(private readonly trx: Executor) {}

  add(
    scan: SubmittedScanRow,
    timeline: readonly StoredTimelineEntry[],
    violations: readonly NewViolation[],
  ): ChangeSeqOf {
    this.scans.push(scan);
    this.timelines.push(timeline);
    for (const violation of violations) this.violations.push(violation);
    return () => {
      if (this.changeSeq === undefined) throw new Error('a deferred scan was read before its batch was written');
      return this.changeSeq;
    };
  }

  async flush(): Promise<void> {
    this.changeSeq = dialectOf(this.trx) === 'postgres' ? await this.inOneStatement() : await this.inChunks();
  }

  private async inOneStatement(): Promise<number> {
    const scanIds: string[] = [];
    const seqs: number[] = [];
    const timestamps: number[] = [];
    const actions: string[] = [];
    const tokens: number[] = [];
    this.scans.forEach((scan, i) => {
      this.timelines[i]!.forEach((entry, seq) => {
        scanIds.push(scan.id);
        seqs.push(seq);
        timestamps.push(entry.timestamp);
        actions.push(entry.action);
        tokens.push(entry.tokens);
      });
    });
    const { rows } = await this.trx.executeQuery<{ last_seq: number | string }>(
      CompiledQuery.raw(PG_BATCH, [
        JSON.stringify(this.scans),
        scanIds,
        seqs,
        timestamps,
        actions,
        tokens,
        JSON.stringify(this.violations),
      ]),
    );
    return Number(rows[0]!.last_seq);
  }

  private async inChunks(): Promise<number> {
    const changeSeq = await nextChangeSeq(this.trx);
    await repo.insertScans(
      this.trx,
      this.scans.map((scan) => ({ ...scan, change_seq: changeSeq })),
    );
    await insertTimelines(
      this.trx,
      this.scans.map((scan, i) => ({ scanId: scan.id, entries: this.timelines[i]! })),
    );
    await repo.insertViolations(this.trx, this.violations);
    return changeSeq;
  }
}
