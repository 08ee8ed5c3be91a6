import type SQLite from 'better-sqlite3';
import { openSqlite } from '../src/main/db/sqlite/sqlite-connection';
import { newId } from '../src/main/ids';
import { databaseFile } from '../src/main/workspace/data-dir';
import { prepareWorkspace } from './lib/bare-common';
import { formatCount } from './lib/format';
import { result } from './lib/result';
import { defineBenchmark, type BenchContext, type Result } from './lib/types';

const NAME = 'submit-schema';
const SUBMITS = { full: 20_000, quick: 1_000 } as const;
const ENTRIES = 10;
const TOOLS = ['ChatGPT', 'Copilot', 'Cursor', 'Claude', 'Gemini', 'Codeium'];

/** What a submission writes into besides the two tables themselves: each costs every submit. */
const EXTRAS = [
  { name: 'scans_list_tokens', kind: 'index', what: 'sort by tokens' },
  { name: 'scans_list', kind: 'index', what: 'list, newest first' },
  { name: 'scans_list_submitted_by', kind: 'index', what: "list, a member's own" },
  { name: 'scans_list_organization_id', kind: 'index', what: "list, an organization's" },
  { name: 'scans_list_tool', kind: 'index', what: 'list by tool' },
  { name: 'scans_count_insert', kind: 'trigger', what: 'list totals rollup' },
  { name: 'scans_day_insert', kind: 'trigger', what: 'day rollup (overview, totals over time)' },
  { name: 'scans_hour_insert', kind: 'trigger', what: 'hour rollup (totals over partial days)' },
  { name: 'scans_organization_day_insert', kind: 'trigger', what: 'day rollup without the submitter (managers)' },
  { name: 'scans_organization_hour_insert', kind: 'trigger', what: 'hour rollup without the submitter (managers)' },
  { name: 'scans_flagged_insert', kind: 'trigger', what: 'flagged scans rollups (none for these clean scans)' },
] as const;

/** µs per submission written the way the bare baseline writes them: one transaction each. */
function writeSubmissions(sqlite: SQLite.Database, ownerId: string, submits: number): number {
  const insertScan = sqlite.prepare(
    `INSERT INTO scans (id, created_at, tool, action, tokens, status, source, organization_id, submitted_by,
       token_breakdown, request_count, violation_count, worst_severity)
     VALUES (?, ?, ?, 'edit', ?, 'completed', 'submitted', NULL, ?, '{}', ?, 0, 0)`,
  );
  const insertTimeline = sqlite.prepare('INSERT INTO timelines (scan_id) VALUES (?)');
  const insertEntry = sqlite.prepare(
    'INSERT INTO timeline_entries (timeline_id, seq, timestamp, action, tokens) VALUES (?, ?, ?, ?, ?)',
  );
  const save = sqlite.transaction((id: string, createdAt: number, tool: string) => {
    insertScan.run(id, createdAt, tool, ENTRIES * 42, ownerId, ENTRIES);
    const timelineId = insertTimeline.run(id).lastInsertRowid;
    for (let seq = 0; seq < ENTRIES; seq++) insertEntry.run(timelineId, seq, createdAt + seq, 'edit', 42);
  }).immediate;
  const start = Date.UTC(2026, 10, 1);
  const started = performance.now();
  for (let i = 0; i < submits; i++) save(newId('scan'), start + i * 1000, TOOLS[i % TOOLS.length]!);
  return ((performance.now() - started) * 1000) / submits;
}

/** A fresh migrated store with `dropped` removed, and the µs a submission costs in it. */
async function costWithout(context: BenchContext, dropped: readonly (typeof EXTRAS)[number][]): Promise<number> {
  const dataDir = context.scratch.tempDir('submit-schema');
  try {
    const ownerId = await prepareWorkspace(dataDir);
    const sqlite = openSqlite(databaseFile(dataDir));
    try {
      for (const extra of dropped) sqlite.exec(`DROP ${extra.kind.toUpperCase()} ${extra.name}`);
      return writeSubmissions(sqlite, ownerId, context.quick ? SUBMITS.quick : SUBMITS.full);
    } finally {
      sqlite.close();
    }
  } finally {
    await context.scratch.removeDir(dataDir);
  }
}

export default defineBenchmark({
  name: NAME,
  description: `what each index and trigger costs a submission (${ENTRIES}-entry timeline, one transaction each), in-process`,
  async run(context) {
    const submits = context.quick ? SUBMITS.quick : SUBMITS.full;
    context.log(`${formatCount(submits)} submissions into the full schema, then without each extra`);
    const full = await costWithout(context, []);
    const rows: Result[] = [];
    const row = (label: string, value: number, note: string) =>
      rows.push(
        result({
          benchmark: NAME,
          label,
          metric: 'µs/submit',
          value,
          baseline: { label: 'the full schema', value: full },
          note,
        }),
      );
    for (const extra of EXTRAS) {
      const without = await costWithout(context, [extra]);
      row(`without ${extra.kind} ${extra.name}`, without, `${extra.what}: ${(full - without).toFixed(1)} µs a submit`);
    }
    const lean = await costWithout(context, EXTRAS);
    row('without any of them', lean, `the two tables alone; the full schema ${full.toFixed(1)} µs`);
    return rows;
  },
});
