/**
 * A long timeline through a real server whose heap is capped far below the timeline's size: the
 * evidence response is streamed, so it is served whole and the server lives on. Held in memory at
 * once, 200,000 entries took about 140 MB of heap and the server died.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Evidence } from '../../src/shared/api/evidence';
import { formatTimestamp } from '../../src/shared/time';
import { findWorkspaceOwner } from '../../src/main/users/users.repository';
import { openWorkspace } from '../../src/main/workspace/workspace';
import { defaultEntry, insertEvidenceScan } from '../helpers/evidence-fixtures';
import { cleanupProcesses, makeTempDir, startServe, type ServeProcess } from '../helpers/serve-process';
import { testDatabaseFor } from '../helpers/test-database';

const ENTRIES = 200_000;
const HEAP_MB = 64;

/** A process's peak resident set so far (VmHWM), in MB. */
function peakRssMb(pid: number): number {
  const match = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Number(match![1]) / 1024;
}

describe(`GET /v1/scans/:id/evidence under --max-old-space-size=${HEAP_MB}`, () => {
  let server: ServeProcess;

  beforeAll(async () => {
    const dataDir = makeTempDir();
    const workspace = await openWorkspace(dataDir, { database: await testDatabaseFor(dataDir) });
    try {
      const owner = (await findWorkspaceOwner(workspace.db))!;
      await insertEvidenceScan(workspace.db, { id: 'scan_BIG', submittedBy: owner.id, entries: ENTRIES });
    } finally {
      await workspace.close();
    }
    server = await startServe({ dataDir, env: { NODE_OPTIONS: `--max-old-space-size=${HEAP_MB}` } });
  }, 120_000);
  afterAll(() => cleanupProcesses());

  it(`serves a ${ENTRIES.toLocaleString('en-US')}-entry timeline whole, twice, and stays up`, async () => {
    const idleMb = peakRssMb(server.serverPid);
    for (let round = 0; round < 2; round++) {
      const response = await fetch(`${server.url}/v1/scans/scan_BIG/evidence`, {
        headers: { authorization: `Bearer ${server.token}` },
      });
      expect(response.status).toBe(200);
      const body = (await response.json()) as Evidence;
      expect(body.evidence.request_count).toBe(ENTRIES);
      expect(body.evidence.timeline).toHaveLength(ENTRIES);
      const last = defaultEntry(ENTRIES - 1);
      expect(body.evidence.timeline!.at(-1)).toEqual({ ...last, timestamp: formatTimestamp(last.timestamp) });
    }
    const health = await fetch(`${server.url}/healthz`);
    expect(health.status).toBe(200);
    const peakMb = peakRssMb(server.serverPid);
    console.log(`serve: idle peak RSS ${idleMb.toFixed(0)} MB, after two full responses ${peakMb.toFixed(0)} MB`);
    expect(server.process.exitCode).toBeNull();
  }, 120_000);
});
