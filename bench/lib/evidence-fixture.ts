/**
 * The data the evidence benchmarks share: a data dir holding one scan per timeline size, loaded
 * straight into the store (seconds for a million entries, where the API would take minutes), and
 * the evidence package of each scan, downloaded once per run.
 */
import { join } from 'node:path';
import { BulkInserter, ENTRY_SAMPLE, SCAN_SAMPLE } from '../../src/main/db/bulk-insert';
import { nextChangeSeq } from '../../src/main/db/change-sequence';
import { inTransaction } from '../../src/main/db/transaction';
import { createTimeline } from '../../src/main/evidence/timeline/timeline-writes.repository';
import { seededRandom } from '../../test/fixtures/seeded-random';
import { openBulkStore } from './bulk-store';
import { downloadToFile } from './http';
import { startServe } from './serve-child';
import type { BenchContext } from './types';

/** Timeline sizes: [full run, --quick]. */
export const LARGE_TIMELINE = { full: 1_000_000, quick: 20_000 } as const;
export const SMALL_TIMELINE = { full: 100_000, quick: 2_000 } as const;

export const timelineSizes = (context: BenchContext): { large: number; small: number } =>
  context.quick
    ? { large: LARGE_TIMELINE.quick, small: SMALL_TIMELINE.quick }
    : { large: LARGE_TIMELINE.full, small: SMALL_TIMELINE.full };

export const scanIdFor = (entries: number): string => `bench-timeline-${entries}`;

const ACTIONS = ['chat.completion', 'code.completion', 'embedding', 'file.read', 'tool.call', 'web.search'];
const START_MS = Date.UTC(2025, 0, 1);
const CHUNK_ROWS = 100;

export interface TimelineDataDir {
  dataDir: string;
  /** Its PostgreSQL database, when the run measures PostgreSQL. */
  database: string | undefined;
  /** Scan id by timeline length. */
  scans: ReadonlyMap<number, string>;
}

/** Fills `dataDir` with one scan per size, each with a timeline of that many entries. */
export async function createTimelineDataDir(
  dataDir: string,
  sizes: readonly number[],
  database?: string,
): Promise<TimelineDataDir> {
  const store = await openBulkStore(dataDir, database);
  const { db, ownerId } = store;
  const scans = new Map<number, string>();
  try {
    for (const size of sizes) {
      const id = scanIdFor(size);
      const next = seededRandom(size);
      await inTransaction(db, async (trx) => {
        const scanRows = new BulkInserter(db, trx, 'scans', SCAN_SAMPLE, 1);
        const entryRows = new BulkInserter(db, trx, 'timeline_entries', ENTRY_SAMPLE, CHUNK_ROWS);
        // The scan row first (foreign keys), with its totals patched in once they are known.
        scanRows.push(
          id,
          START_MS,
          'bench',
          ACTIONS[0]!,
          0,
          'completed',
          'submitted',
          null,
          ownerId,
          '{}',
          0,
          0,
          0,
          await nextChangeSeq(trx),
        );
        await scanRows.flush();
        const timeline = await createTimeline(trx, id);
        let timestamp = START_MS;
        let tokens = 0;
        const breakdown = { input: 0, output: 0 };
        for (let seq = 0; seq < size; seq++) {
          timestamp += 1 + Math.floor(next() * 2000);
          const count = 1 + Math.floor(next() * 4000);
          const input = Math.floor(count * 0.7);
          breakdown.input += input;
          breakdown.output += count - input;
          tokens += count;
          const written = entryRows.push(
            timeline,
            seq,
            timestamp,
            ACTIONS[Math.floor(next() * ACTIONS.length)]!,
            count,
          );
          if (written) await written;
        }
        await entryRows.flush();
        await trx
          .updateTable('scans')
          .set({ tokens, request_count: size, token_breakdown: JSON.stringify(breakdown) })
          .where('id', '=', id)
          .execute();
      });
      scans.set(size, id);
    }
  } finally {
    await store.close();
  }
  return { dataDir, database, scans };
}

/** The run's timeline data dir (both sizes), built by whichever benchmark needs it first. */
export function timelineDataDir(context: BenchContext): Promise<TimelineDataDir> {
  return context.memo('evidence:data-dir', async () => {
    const { large, small } = timelineSizes(context);
    const dataDir = context.scratch.tempDir('timeline');
    context.log(
      `building a data dir with ${large.toLocaleString('en-US')}- and ${small.toLocaleString('en-US')}-entry timelines`,
    );
    const started = performance.now();
    const data = await createTimelineDataDir(dataDir, [large, small], await context.storeFor('timeline'));
    context.log(`  built in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    return data;
  });
}

export interface PackageFile {
  path: string;
  bytes: number;
  scanId: string;
  entries: number;
}

const packageKey = (entries: number): string => `evidence:package:${entries}`;

/** Records a package a benchmark has downloaded anyway, so that no other benchmark downloads it again. */
export function rememberPackage(context: BenchContext, file: PackageFile): void {
  void context.memo(packageKey(file.entries), () => Promise.resolve(file));
}

/** The evidence package of the scan with `entries` timeline entries, downloaded (unmeasured) if not yet. */
export function evidencePackage(context: BenchContext, entries: number): Promise<PackageFile> {
  return context.memo(packageKey(entries), async () => {
    const data = await timelineDataDir(context);
    const scanId = data.scans.get(entries);
    if (!scanId) throw new Error(`no ${entries}-entry scan in the timeline data dir`);
    const path = join(context.scratch.tempDir('package'), `${scanId}.zip`);
    const server = await startServe(context.scratch, data.dataDir, data.database);
    try {
      const bytes = await downloadToFile(`${server.url}/v1/scans/${scanId}/evidence/download`, server.token, path);
      return { path, bytes, scanId, entries };
    } finally {
      await server.stop();
    }
  });
}
