/**
 * The submit baseline: `POST /v1/scans` on bare node:http with prepared better-sqlite3
 * statements. It does what a submission must do and nothing more: read and parse the JSON, check
 * the fields minimally (the sizes and the tokens sum of docs/contract/api.md#scans), store the scan row and its
 * timeline rows in one transaction, answer 201 with the scan. No framework, no schema compiler,
 * no query builder, no policy (the benchmark submits scans without an organization, so the real
 * server evaluates none either).
 *
 * usage: node --import tsx bench/lib/bare-submit-server.ts DATA_DIR
 */
import { listen, openBareStore } from './bare-common';
import { submissionServer, type Entry, type Submission } from './bare-submission';

const store = await openBareStore(process.argv[2]);
const { sqlite, ownerId } = store;
const insertScan = sqlite.prepare(
  `INSERT INTO scans (id, created_at, tool, action, tokens, status, source, organization_id, submitted_by,
     token_breakdown, request_count, violation_count, worst_severity)
   VALUES (?, ?, ?, ?, ?, 'completed', 'submitted', NULL, ?, '{}', ?, 0, 0)`,
);
const insertTimeline = sqlite.prepare('INSERT INTO timelines (scan_id) VALUES (?)');
const insertEntry = sqlite.prepare(
  'INSERT INTO timeline_entries (timeline_id, seq, timestamp, action, tokens) VALUES (?, ?, ?, ?, ?)',
);
// IMMEDIATE like the app's transactions: the write lock at BEGIN, never a failed upgrade.
const save = sqlite.transaction((id: string, createdAt: number, scan: Submission, timeline: readonly Entry[]) => {
  insertScan.run(id, createdAt, scan.tool, scan.action, scan.tokens, ownerId, timeline.length);
  if (timeline.length === 0) return;
  const timelineId = insertTimeline.run(id).lastInsertRowid;
  timeline.forEach((entry, seq) => insertEntry.run(timelineId, seq, entry.timestamp, entry.action, entry.tokens));
}).immediate;

listen(submissionServer(store.token, save), () => sqlite.close());
