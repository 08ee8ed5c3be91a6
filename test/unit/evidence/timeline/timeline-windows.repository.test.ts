import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertTimeline } from '../../../../src/main/evidence/timeline/timeline-writes.repository';
import {
  timelineAggregate,
  timelineBounds,
  timelineSeqRange,
} from '../../../../src/main/evidence/timeline/timeline-windows.repository';
import { findWorkspaceOwner } from '../../../../src/main/users/users.repository';
import { openWorkspace, type Workspace } from '../../../../src/main/workspace/workspace';
import { insertScanRow } from '../../../helpers/scan-row';

describe('time windows as seq ranges', () => {
  let dir: string;
  let workspace: Workspace;
  // Timestamps with long runs of ties, in order, as submit and import store them.
  const stamps = Array.from({ length: 500 }, (_, i) => 1000 + 10 * Math.floor(i / 7) + (i % 7 === 6 ? 3 : 0));
  const tokens = (i: number) => (i * 37) % 101;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'scandesk-seq-range-'));
    workspace = await openWorkspace(dir);
    const owner = (await findWorkspaceOwner(workspace.db))!;
    for (const [id, n] of [
      ['scan_ties', stamps.length],
      ['scan_none', 0],
    ] as const) {
      await insertScanRow(workspace.db, id, owner.id, n);
    }
    await insertTimeline(
      workspace.db,
      'scan_ties',
      stamps.map((timestamp, seq) => ({ timestamp, action: 'a', tokens: tokens(seq) })),
    );
  });

  afterAll(async () => {
    await workspace.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('finds exactly the entries of any window, ties on either bound included', async () => {
    const edges = [undefined, 0, 999, 1000, 1001, 1003, 1010, 1013, 1250, 1700, 1713, 1714, 5000];
    for (const since of edges) {
      for (const until of edges) {
        const inside = stamps
          .map((t, seq) => ({ t, seq }))
          .filter(({ t }) => (since === undefined || t >= since) && (until === undefined || t < until));
        const expected = inside.length === 0 ? null : { first: inside[0]!.seq, last: inside.at(-1)!.seq };
        expect(await timelineSeqRange(workspace.db, 'scan_ties', since, until), `${since}..${until}`).toEqual(expected);
        if (since === undefined || until === undefined) continue;
        const picked = inside.map(({ seq }) => tokens(seq));
        expect(await timelineAggregate(workspace.db, 'scan_ties', since, until)).toEqual(
          picked.length === 0
            ? { count: 0, tokens: 0, min: Number.POSITIVE_INFINITY, max: Number.NEGATIVE_INFINITY }
            : {
                count: picked.length,
                tokens: picked.reduce((a, b) => a + b, 0),
                min: Math.min(...picked),
                max: Math.max(...picked),
              },
        );
      }
    }
    expect(await timelineBounds(workspace.db, 'scan_ties')).toEqual({ first: stamps[0], last: stamps.at(-1) });
  });

  it('answers an empty timeline with nothing', async () => {
    expect(await timelineSeqRange(workspace.db, 'scan_none', undefined, undefined)).toBeNull();
    expect(await timelineSeqRange(workspace.db, 'scan_none', 0, 10)).toBeNull();
    expect(await timelineBounds(workspace.db, 'scan_none')).toBeNull();
  });
});
