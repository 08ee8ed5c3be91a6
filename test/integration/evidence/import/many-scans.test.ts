/**
 * A package of many small scans (the sync's usual batch) is stored in a few statements: short
 * timelines held in memory and written with their scans by the closing transaction, a long one
 * staged as it streams. Both ways in, the ordinary import and a pull: every timeline read back
 * whole, the rollups right, and a refused package leaves nothing behind, staged rows included.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DomainError } from '../../../../src/main/domain-error';
import { HELD_SCAN_ENTRIES } from '../../../../src/main/evidence/import/held-entries';
import { derivedScanId, pulledScanId } from '../../../../src/main/evidence/import/import-ids';
import { DEFAULT_IMPORT_LIMITS } from '../../../../src/main/evidence/import/import-limits';
import { importEvidencePackage } from '../../../../src/main/evidence/import/package-import.service';
import { importPulledPackage } from '../../../../src/main/evidence/import/pulled-import.service';
import type { Scan } from '../../../../src/shared/api/scans';
import { snapshotDatabase } from '../../../helpers/assertions';
import { format1, timelineOf } from '../../../helpers/import-fixtures';
import { createOrg, putPolicy, submitScan } from '../../../helpers/scan-fixtures';
import { rollupProblems, storeInvariants } from '../../../helpers/store-checks';
import { createTestContext, type TestContext } from '../../../helpers/test-app';
import { unzip } from '../../../helpers/zip-builder';
import { insertRemote } from '../../../helpers/sync-fixtures';

const SMALL = 120;
const LONG = HELD_SCAN_ENTRIES + 700;

describe('a package of many small scans and one long one', () => {
  let remote: TestContext;
  let dir: string;
  let files = 0;
  /** SMALL scans of 10 entries (every third with a violation), the long one in the middle. */
  const scans: Scan[] = [];
  let longId: string;
  let packageZip: Buffer;

  beforeAll(async () => {
    remote = await createTestContext();
    dir = mkdtempSync(join(tmpdir(), 'scandesk-many-'));
    const org = await createOrg(remote, 'Team');
    await putPolicy(remote, org, {
      max_tokens_per_scan: null,
      max_tokens_per_request: 60,
      allowed_tools: null,
      blocked_tools: [],
      blocked_actions: [],
    });
    for (let i = 0; i < SMALL; i++) {
      const timeline = timelineOf(10, Date.UTC(2026, 10, 1) + i * 60_000, (j) =>
        i % 3 === 0 && j === 4 ? 70 : 10 + j,
      );
      if (i === SMALL / 2) {
        const long = timelineOf(LONG, Date.UTC(2026, 9, 1), (j) => (j % 13) + 1);
        const scan = await submitScan(remote, {
          tool: 'claude-code',
          action: 'edit',
          tokens: long.reduce((sum, entry) => sum + entry.tokens, 0),
          organization_id: org,
          timeline: long,
        });
        longId = scan.id;
        scans.push(scan);
      }
      scans.push(
        await submitScan(remote, {
          tool: 'cursor',
          action: 'edit',
          tokens: timeline.reduce((sum, entry) => sum + entry.tokens, 0),
          organization_id: org,
          timeline,
        }),
      );
    }
    expect(scans.filter((scan) => scan.violations.length > 0)).toHaveLength(SMALL / 3);
    packageZip = await exportOf(scans.map((scan) => scan.id));
  });

  afterAll(async () => {
    await remote?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function exportOf(ids: readonly string[]): Promise<Buffer> {
    const response = await remote.request({ method: 'POST', url: '/v1/evidence/exports', payload: { scan_ids: ids } });
    expect(response.statusCode, response.body).toBe(200);
    return response.rawPayload;
  }

  const written = (zip: Buffer): string => {
    const path = join(dir, `package-${files++}.zip`);
    writeFileSync(path, zip);
    return path;
  };

  async function timelineOfScan(ctx: TestContext, id: string) {
    const response = await ctx.request({ method: 'GET', url: `/v1/scans/${id}/evidence` });
    expect(response.statusCode, response.body).toBe(200);
    return (response.json() as { evidence: { timeline: unknown[] } }).evidence.timeline;
  }

  async function violationsOf(ctx: TestContext, id: string) {
    const response = await ctx.request({ method: 'GET', url: `/v1/scans/${id}` });
    expect(response.statusCode, response.body).toBe(200);
    return (response.json() as Scan).violations.map(({ rule, severity, message, timeline_index }) => ({
      rule,
      severity,
      message,
      timeline_index,
    }));
  }

  /** Every stored scan has its remote twin's timeline and violations; the long one its pyramid. */
  async function expectStoredAs(local: TestContext, localId: (remoteId: string) => string) {
    for (const scan of scans) {
      expect(await timelineOfScan(local, localId(scan.id))).toEqual(await timelineOfScan(remote, scan.id));
      expect(await violationsOf(local, localId(scan.id))).toEqual(await violationsOf(remote, scan.id));
    }
    const grids = await local.db.selectFrom('timeline_grids').select('scan_id').execute();
    expect(grids.map((grid) => grid.scan_id)).toEqual([localId(longId)]);
    const staged = await local.db.selectFrom('timelines').select('id').where('scan_id', 'is', null).execute();
    expect(staged).toEqual([]);
    expect(rollupProblems(await storeInvariants(local.db))).toEqual([]);
  }

  /** The package with the last scan's token total made wrong: refused after every other scan was read. */
  async function refusedPackage(): Promise<Buffer> {
    const all = await unzip(packageZip);
    const last = scans.at(-1)!.id;
    const path = `scans/${last}/evidence.json`;
    const evidence = JSON.parse(all.get(path)!.toString()) as { evidence: { total_tokens: number } };
    all.set(path, Buffer.from(JSON.stringify({ ...evidence, evidence: { ...evidence.evidence, total_tokens: 1 } })));
    return format1(
      all,
      scans.map((scan) => scan.id),
    );
  }

  it('the ordinary import stores every scan whole', async () => {
    const local = await createTestContext();
    try {
      const result = await importEvidencePackage(local.db, local.owner.id, written(packageZip), DEFAULT_IMPORT_LIMITS);
      const ids = (id: string) => derivedScanId(local.owner.id, id);
      expect(result.imported).toEqual(scans.map((scan) => ids(scan.id)));
      await expectStoredAs(local, ids);
      const again = await importEvidencePackage(local.db, local.owner.id, written(packageZip), DEFAULT_IMPORT_LIMITS);
      expect(again.imported).toEqual([]);
      expect(again.unchanged).toHaveLength(scans.length);
    } finally {
      await local.close();
    }
  });

  it('a pull stores every scan whole, and the same package again is unchanged', async () => {
    const local = await createTestContext();
    try {
      await insertRemote(local.db, { id: 'r1', user_id: local.owner.id });
      const placement = { remoteId: 'r1', userId: local.owner.id, organizations: new Map<string, string>() };
      const ids = (id: string) => pulledScanId('r1', id);
      const result = await importPulledPackage(local.db, written(packageZip), DEFAULT_IMPORT_LIMITS, placement);
      expect(result.new).toEqual(scans.map((scan) => ids(scan.id)));
      await expectStoredAs(local, ids);
      const before = await snapshotDatabase(local.db);
      const again = await importPulledPackage(local.db, written(packageZip), DEFAULT_IMPORT_LIMITS, placement);
      expect(again.unchanged).toHaveLength(scans.length);
      expect(await snapshotDatabase(local.db)).toEqual(before);
    } finally {
      await local.close();
    }
  });

  it('a refused package leaves nothing behind, its staged timeline included, both ways in', async () => {
    const local = await createTestContext();
    try {
      await insertRemote(local.db, { id: 'r1', user_id: local.owner.id });
      const refused = written(await refusedPackage());
      const before = await snapshotDatabase(local.db);
      const imported = await importEvidencePackage(local.db, local.owner.id, refused, DEFAULT_IMPORT_LIMITS).catch(
        (error: unknown) => error,
      );
      expect(imported).toBeInstanceOf(DomainError);
      expect((imported as DomainError).code).toBe('invalid_package');
      expect(await snapshotDatabase(local.db)).toEqual(before);
      const placement = { remoteId: 'r1', userId: local.owner.id, organizations: new Map<string, string>() };
      let closed = false;
      const pulled = await importPulledPackage(local.db, refused, DEFAULT_IMPORT_LIMITS, placement, {
        closing: async () => {
          closed = true;
        },
      }).catch((error: unknown) => error);
      expect(pulled).toBeInstanceOf(DomainError);
      expect((pulled as DomainError).message).toBe((imported as DomainError).message);
      expect(closed).toBe(false);
      expect(await snapshotDatabase(local.db)).toEqual(before);
    } finally {
      await local.close();
    }
  });
});
