/**
 * The lean submit baseline: the floor of a submission's work. node:http, JSON.parse,
 * the same minimal checks as the bare baseline, and a schema of two tables only: scans with one
 * list index, and timeline entries clustered on their key; WAL with synchronous=NORMAL, one
 * transaction per request, no rollups, no triggers, no foreign keys. What the real server does
 * beyond this (rollups, covering list indexes, policy, auth lookups, a framework) is its overhead.
 *
 * usage: node --import tsx bench/lib/lean-submit-server.ts DATA_DIR
 */
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { listen, openBareStore } from './bare-common';
import { submissionServer, type Entry, type Submission } from './bare-submission';

const dataDir = process.argv[2];
// The workspace only for its token, which the load generator sends; the data goes elsewhere.
const store = await openBareStore(dataDir);
store.sqlite.close();
const sqlite = new SQLite(join(dataDir!, 'lean.db'));
sqlite.pragma('journal_mode = WAL');
sqlite.pragma('synchronous = NORMAL');
sqlite.exec(`
  create table if not exists scans (
    id text primary key, created_at integer not null, tool text not null, action text not null,
    tokens integer not null, submitted_by text not null, request_count integer not null);
  create index if not exists scans_list on scans (created_at, id);
  create table if not exists timeline_entries (
    scan_id text not null, seq integer not null, timestamp integer not null, action text not null,
    tokens integer not null, primary key (scan_id, seq)) without rowid;`);
const insertScan = sqlite.prepare(
  'INSERT INTO scans (id, created_at, tool, action, tokens, submitted_by, request_count) VALUES (?, ?, ?, ?, ?, ?, ?)',
);
const insertEntry = sqlite.prepare(
  'INSERT INTO timeline_entries (scan_id, seq, timestamp, action, tokens) VALUES (?, ?, ?, ?, ?)',
);
const save = sqlite.transaction((id: string, createdAt: number, scan: Submission, timeline: readonly Entry[]) => {
  insertScan.run(id, createdAt, scan.tool, scan.action, scan.tokens, store.ownerId, timeline.length);
  timeline.forEach((entry, seq) => insertEntry.run(id, seq, entry.timestamp, entry.action, entry.tokens));
}).immediate;

listen(submissionServer(store.token, save), () => sqlite.close());
