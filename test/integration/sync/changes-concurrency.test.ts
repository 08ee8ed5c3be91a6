/**
 * PostgreSQL, several server processes on one store: two pools submit concurrently (each through
 * its own group commit) while a reader pages through the change feed. The counter's row lock hands
 * out seqs in commit order, so a reader that passed a seq never meets a smaller one later: every
 * committed scan is read, none skipped, none twice per change.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../../../src/main/db/index';
import { submitScan } from '../../../src/main/scans/scans.service';
import { readChanges } from '../../../src/main/sync/changes/changes.service';
import { createTestContext, type TestContext } from '../../helpers/test-app';
import { onPostgres, testDatabaseFor } from '../../helpers/test-database';

const BURSTS = 25;
const PER_BURST = 8;

describe.runIf(onPostgres)('the change feed while two server processes write', () => {
  let ctx: TestContext;
  let writers: Store[];

  beforeAll(async () => {
    ctx = await createTestContext();
    const location = (await testDatabaseFor(ctx.dataDir))!;
    writers = [openStore(location), openStore(location)];
  });

  afterAll(async () => {
    for (const writer of writers) await writer.close();
    await ctx.close();
  });

  it('reads every committed scan, none skipped, while pages are read between commits', async () => {
    const submitted: string[] = [];
    let writing = true;
    const write = async (store: Store, name: string) => {
      for (let burst = 0; burst < BURSTS; burst++) {
        const scans = await Promise.all(
          Array.from({ length: PER_BURST }, (_, n) =>
            submitScan(store.db, ctx.owner.id, { tool: `${name}-${burst}-${n}`, action: 'edit', tokens: 1 }),
          ),
        );
        submitted.push(...scans.map(({ scan }) => scan.id));
      }
    };
    const seen: string[] = [];
    let cursor: string | undefined;
    let pagesWhileWriting = 0;
    const read = async () => {
      for (;;) {
        const done = !writing;
        const page = await readChanges(ctx.db, ctx.owner.id, { cursor, limit: 5 });
        seen.push(...page.changes.map((change) => change.id));
        cursor = page.cursor;
        if (!done) pagesWhileWriting += 1;
        // Once the writers are done, the feed is read to its end.
        if (done && !page.more) return;
        if (!page.more) await new Promise((resolve) => setImmediate(resolve));
      }
    };
    const reader = read();
    await Promise.all(writers.map((store, i) => write(store, `writer${i}`)));
    writing = false;
    await reader;

    expect(submitted).toHaveLength(2 * BURSTS * PER_BURST);
    expect(pagesWhileWriting).toBeGreaterThan(1);
    expect(new Set(seen).size).toBe(seen.length);
    expect([...seen].sort()).toEqual([...submitted].sort());
  });
});
