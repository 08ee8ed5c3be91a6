import { CompiledQuery } from 'kysely';
import { dialectOf, type Executor, type NewScan, nextChangeSeq, SCAN_SAMPLE_COLUMNS } from '../db/index';
import type { StoredTimelineEntry } from '../evidence/timeline/timeline-entry';
import { insertTimeline } from '../evidence/timeline/timeline-writes.repository';
import * as repo from './scans.repository';

// A submit's writes. Every statement of a group commit is a round trip on the batch's one
// connection, and the batch's works run one after another on it: on PostgreSQL, where a round trip
// crosses to another process, the number of statements per submit bounds how many submits a
// second one server stores. There the change seq, the scan row, its timeline and the timeline's
// entries are one statement; SQLite, in process, keeps its small prepared ones.

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
  scan: Omit<NewScan, 'change_seq'>,
  timeline: readonly StoredTimelineEntry[] | null,
): Promise<number> {
  if (dialectOf(trx) !== 'postgres') {
    const changeSeq = await nextChangeSeq(trx);
    await repo.insertScan(trx, { ...scan, change_seq: changeSeq });
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
