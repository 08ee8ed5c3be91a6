/**
 * Storing a package pulled from a remote (docs/contract/api.md#pulled-scans): a team server's own
 * export, stored on a laptop as the remote's scans: new, unchanged, changed (violations, or the
 * whole scan), and our own pushes coming back (echoed). Checked as an import is, all or nothing,
 * the sync's cursor saved in the same transaction.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Executor } from '../../../../src/main/db/index';
import { DomainError } from '../../../../src/main/domain-error';
import { pulledScanId, pulledViolationId } from '../../../../src/main/evidence/import/import-ids';
import { DEFAULT_IMPORT_LIMITS } from '../../../../src/main/evidence/import/import-limits';
import {
  importPulledPackage,
  type PulledImportOptions,
} from '../../../../src/main/evidence/import/pulled-import.service';
import type { Scan } from '../../../../src/shared/api/scans';
import { snapshotDatabase } from '../../../helpers/assertions';
import { format1, json, upstreamEvidence, timelineOf } from '../../../helpers/import-fixtures';
import { createOrg, listScans, putPolicy, submitScan } from '../../../helpers/scan-fixtures';
import { rollupProblems, storeInvariants } from '../../../helpers/store-checks';
import { createTestContext, type TestContext } from '../../../helpers/test-app';
import { buildZip, unzip } from '../../../helpers/zip-builder';
import { insertRemote } from '../../../helpers/sync-fixtures';

const TEAM = 'remote-team';
const MIRROR = 'remote-mirror';

describe('storing pulled scans', () => {
  /** The team server the packages come from. */
  let remote: TestContext;
  /** The laptop that stores them. */
  let local: TestContext;
  let dir: string;
  let remoteOrg: string;
  let localOrg: string;
  /** A (in the organization, one violation), B (in it, none), C (in no organization). */
  let scans: Scan[];
  let files = 0;

  const policy = {
    max_tokens_per_scan: null,
    max_tokens_per_request: 100,
    allowed_tools: null,
    blocked_tools: [],
    blocked_actions: [],
  };

  beforeAll(async () => {
    remote = await createTestContext();
    local = await createTestContext();
    dir = mkdtempSync(join(tmpdir(), 'scandesk-pulled-'));
    remoteOrg = await createOrg(remote, 'Team');
    await putPolicy(remote, remoteOrg, policy);
    scans = [];
    for (const [tool, tokens, organization] of [
      ['claude-code', [40, 300], true],
      ['cursor', [20, 30], true],
      ['copilot', [5, 6], false],
    ] as const) {
      scans.push(
        await submitScan(remote, {
          tool,
          action: 'edit',
          tokens: tokens[0] + tokens[1],
          ...(organization ? { organization_id: remoteOrg } : {}),
          token_breakdown: { input: tokens[0], output: tokens[1] },
          timeline: [
            { timestamp: '2026-11-20T08:00:00.000Z', action: 'read', tokens: tokens[0] },
            { timestamp: '2026-11-20T08:00:05.000Z', action: 'edit', tokens: tokens[1] },
          ],
        }),
      );
    }
    expect(scans.map((scan) => scan.violations.length)).toEqual([1, 0, 0]);
    const now = Date.now();
    for (const [id, name] of [
      [TEAM, 'team'],
      [MIRROR, 'mirror'],
    ]) {
      await insertRemote(local.db, {
        id: id!,
        name: name!,
        url: 'https://team.example',
        user_id: local.owner.id,
        push_since: now,
        created_at: now,
      });
    }
    localOrg = await createOrg(local, 'Team');
    await local.db
      .updateTable('organizations')
      .set({ remote_id: TEAM, remote_org_id: remoteOrg })
      .where('id', '=', localOrg)
      .execute();
  });

  afterAll(async () => {
    await remote?.close();
    await local?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** The remote's own export of `ids`, as a sync fetches it. */
  async function exportOf(ids: readonly string[]): Promise<Buffer> {
    const response = await remote.request({ method: 'POST', url: '/v1/evidence/exports', payload: { scan_ids: ids } });
    expect(response.statusCode, response.body).toBe(200);
    return response.rawPayload;
  }

  /** An export with some of its files changed, its manifest made again. */
  async function tampered(ids: readonly string[], change: (files: Map<string, Buffer>) => void): Promise<Buffer> {
    const files = await unzip(await exportOf(ids));
    change(files);
    return format1(files, [...ids]);
  }

  const placement = (remoteId = TEAM) => ({
    remoteId,
    userId: local.owner.id,
    organizations: new Map(remoteId === TEAM ? [[remoteOrg, localOrg]] : []),
  });

  /** Pulls `zip` from `remoteId`, saving `cursor` as the sync does, in the closing transaction. */
  async function pull(zip: Buffer, cursor: string, remoteId = TEAM, options: PulledImportOptions = {}) {
    const path = join(dir, `package-${files++}.zip`);
    writeFileSync(path, zip);
    return importPulledPackage(local.db, path, DEFAULT_IMPORT_LIMITS, placement(remoteId), {
      closing: async (trx: Executor) => {
        await trx.updateTable('remotes').set({ cursor }).where('id', '=', remoteId).execute();
      },
      ...options,
    });
  }

  const cursorOf = async (remoteId = TEAM) =>
    (await local.db.selectFrom('remotes').select('cursor').where('id', '=', remoteId).executeTakeFirstOrThrow()).cursor;

  /** Every row a pull could touch. */
  async function snapshot() {
    return {
      ...(await snapshotDatabase(local.db)),
      remotes: await local.db.selectFrom('remotes').selectAll().orderBy('id').execute(),
      sync_pushes: await local.db.selectFrom('sync_pushes').selectAll().orderBy('scan_id').execute(),
      timeline_grids: await local.db.selectFrom('timeline_grids').selectAll().orderBy('scan_id').execute(),
    };
  }

  async function readLocal(id: string): Promise<Scan> {
    const response = await local.request({ method: 'GET', url: `/v1/scans/${id}` });
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as Scan;
  }

  async function timelineOfLocal(id: string) {
    const response = await local.request({ method: 'GET', url: `/v1/scans/${id}/evidence` });
    expect(response.statusCode, response.body).toBe(200);
    return (response.json() as { evidence: { timeline: unknown[] } }).evidence.timeline;
  }

  /** The overview's charts of each side's owner, who sees every scan of it: the same scans, the same numbers. */
  async function stats(ctx: TestContext) {
    const get = async (url: string) => (await ctx.request({ method: 'GET', url })).json() as unknown;
    return {
      violations: await get('/v1/stats/violations?since=2026-01-01'),
      tokens: await get('/v1/stats/tokens?bucket=day&since=2026-01-01'),
    };
  }

  it("stores new scans as the remote's: derived ids, source pulled, the origin, the mirrored organization, the cursor", async () => {
    const ids = scans.map((scan) => scan.id);
    const result = await pull(await exportOf(ids), 'c1');
    const local_ids = ids.map((id) => pulledScanId(TEAM, id));
    expect(result).toEqual({ new: local_ids, changed: [], unchanged: [], echoed: [] });
    expect(await cursorOf()).toBe('c1');
    for (const [i, scan] of scans.entries()) {
      const pulled = await readLocal(local_ids[i]!);
      expect(pulled).toMatchObject({
        id: local_ids[i],
        source: 'pulled',
        tool: scan.tool,
        tokens: scan.tokens,
        created_at: scan.created_at,
        organization_id: i < 2 ? localOrg : null,
        origin: { remote: 'team', id: scan.id },
        violations: scan.violations.map((v) => ({ ...v, id: pulledViolationId(TEAM, v.id) })),
      });
      expect(pulled.package_id).toBeUndefined();
      expect(await timelineOfLocal(local_ids[i]!)).toHaveLength(2);
    }
    expect(rollupProblems(await storeInvariants(local.db))).toEqual([]);
    expect(await stats(local)).toEqual(await stats(remote));
  });

  it('the same package again is unchanged and writes nothing but the cursor', async () => {
    const before = await snapshot();
    const ids = scans.map((scan) => scan.id);
    const result = await pull(await exportOf(ids), 'c1');
    expect(result).toEqual({ new: [], changed: [], unchanged: ids.map((id) => pulledScanId(TEAM, id)), echoed: [] });
    expect(await snapshot()).toEqual(before);
  });

  it('a re-evaluation on the remote is changed: the violations replaced, the rollups (stats) right', async () => {
    // Stricter: B's 30-token request is flagged now, A's 40 and 300 both.
    await putPolicy(remote, remoteOrg, { ...policy, max_tokens_per_request: 25 });
    const reevaluated = await remote.request({
      method: 'POST',
      url: `/v1/organizations/${remoteOrg}/policy/reevaluate`,
      payload: {
        since: new Date(Date.now() - 3_600_000).toISOString(),
        until: new Date(Date.now() + 60_000).toISOString(),
      },
    });
    expect(reevaluated.statusCode, reevaluated.body).toBe(200);
    const a = (await remote.request({ method: 'GET', url: `/v1/scans/${scans[0]!.id}` })).json() as Scan;
    const b = (await remote.request({ method: 'GET', url: `/v1/scans/${scans[1]!.id}` })).json() as Scan;
    expect([a.violations.length, b.violations.length]).toEqual([2, 1]);
    const timelinesBefore = await local.db.selectFrom('timelines').selectAll().orderBy('id').execute();
    const seqs = async () =>
      (await local.db.selectFrom('scans').select(['id', 'change_seq']).orderBy('id').execute()).map((row) => ({
        id: row.id,
        seq: Number(row.change_seq),
      }));
    const seqsBefore = await seqs();

    const ids = scans.map((scan) => scan.id);
    const result = await pull(await exportOf(ids), 'c2');
    expect(result).toEqual({
      new: [],
      changed: [pulledScanId(TEAM, a.id), pulledScanId(TEAM, b.id)],
      unchanged: [pulledScanId(TEAM, scans[2]!.id)],
      echoed: [],
    });
    expect(await cursorOf()).toBe('c2');
    for (const scan of [a, b]) {
      const pulled = await readLocal(pulledScanId(TEAM, scan.id));
      expect(pulled.violations).toEqual(scan.violations.map((v) => ({ ...v, id: pulledViolationId(TEAM, v.id) })));
      expect(pulled.violation_count).toBe(scan.violation_count);
    }
    // The change feed sends the changed scans again: they, and only they, have a new seq.
    const moved = (await seqs()).filter((row, i) => row.seq !== seqsBefore[i]!.seq).map((row) => row.id);
    expect(moved.sort()).toEqual([pulledScanId(TEAM, a.id), pulledScanId(TEAM, b.id)].sort());
    // Only the violations moved: the timelines are the very rows they were.
    expect(await local.db.selectFrom('timelines').selectAll().orderBy('id').execute()).toEqual(timelinesBefore);
    const list = await listScans(local, 'has_violations=true');
    expect(list.total).toBe(2);
    expect(list.scans.map((row) => row.worst_severity)).toEqual([b.violations[0]!.severity, a.violations[0]!.severity]);
    expect(rollupProblems(await storeInvariants(local.db))).toEqual([]);
    expect(await stats(local)).toEqual(await stats(remote));
  });

  it('a scan that differs in more than its violations is replaced whole, its timeline too', async () => {
    const [, b] = scans;
    const path = `scans/${b!.id}/timeline.jsonl`;
    const zip = await tampered([b!.id], (all) => {
      const lines = all.get(path)!.toString().trim().split('\n');
      const shifted = lines.map((line) => {
        const entry = JSON.parse(line) as { timestamp: string };
        return JSON.stringify({ ...entry, timestamp: new Date(Date.parse(entry.timestamp) + 1000).toISOString() });
      });
      all.set(path, Buffer.from(`${shifted.join('\n')}\n`));
      const scan = JSON.parse(all.get(`scans/${b!.id}/scan.json`)!.toString()) as Scan;
      all.set(`scans/${b!.id}/scan.json`, json({ ...scan, tool: 'cursor-nightly', organization_id: null }));
    });
    const id = pulledScanId(TEAM, b!.id);
    const result = await pull(zip, 'c3');
    expect(result).toEqual({ new: [], changed: [id], unchanged: [], echoed: [] });
    const pulled = await readLocal(id);
    expect(pulled).toMatchObject({
      tool: 'cursor-nightly',
      organization_id: null,
      origin: { remote: 'team', id: b!.id },
    });
    expect(await timelineOfLocal(id)).toEqual([
      { timestamp: '2026-11-20T08:00:01.000Z', action: 'read', tokens: 20 },
      { timestamp: '2026-11-20T08:00:06.000Z', action: 'edit', tokens: 30 },
    ]);
    // The old timeline was deleted after the commit: every timeline has its scan, one each.
    const timelines = await local.db.selectFrom('timelines').select(['scan_id']).execute();
    expect(timelines.filter((row) => row.scan_id === null)).toEqual([]);
    expect(timelines.length).toBe(3);
    expect(rollupProblems(await storeInvariants(local.db))).toEqual([]);
    // Pulled back as the remote has it: changed again, and then the same as the remote.
    expect((await pull(await exportOf([b!.id]), 'c4')).changed).toEqual([id]);
    expect(await stats(local)).toEqual(await stats(remote));
  });

  it('a package refused halfway leaves the store and the cursor as they were', async () => {
    const fresh = await submitScan(remote, { tool: 'claude-code', action: 'edit', tokens: 9 });
    const [a] = scans;
    const zip = await tampered([fresh.id, a!.id], (all) => {
      const path = `scans/${a!.id}/evidence.json`;
      const evidence = JSON.parse(all.get(path)!.toString()) as { evidence: { total_tokens: number } };
      all.set(path, json({ ...evidence, evidence: { ...evidence.evidence, total_tokens: 1 } }));
    });
    const before = await snapshot();
    const error = await pull(zip, 'refused').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DomainError);
    expect((error as DomainError).code).toBe('invalid_package');
    expect((error as DomainError).message).toMatch(/total_tokens/);
    expect(await snapshot()).toEqual(before);
    // Nothing staged is left behind either.
    const staged = await local.db.selectFrom('timelines').select('id').where('scan_id', 'is', null).execute();
    expect(staged).toEqual([]);
  });

  it('a closing step that fails stores nothing of an accepted package', async () => {
    const fresh = await submitScan(remote, { tool: 'claude-code', action: 'edit', tokens: 9 });
    const before = await snapshot();
    const path = join(dir, `package-${files++}.zip`);
    writeFileSync(path, await exportOf([fresh.id]));
    const failing = importPulledPackage(local.db, path, DEFAULT_IMPORT_LIMITS, placement(), {
      closing: async (trx) => {
        await trx.updateTable('remotes').set({ cursor: 'never' }).where('id', '=', TEAM).execute();
        throw new Error('the cursor could not be saved');
      },
    });
    await expect(failing).rejects.toThrow('the cursor could not be saved');
    expect(await snapshot()).toEqual(before);
  });

  it('the same scans from a second remote are a second copy, apart from the first', async () => {
    const ids = scans.map((scan) => scan.id);
    const result = await pull(await exportOf(ids), 'm1', MIRROR);
    expect(result.new).toEqual(ids.map((id) => pulledScanId(MIRROR, id)));
    for (const id of ids) expect(pulledScanId(MIRROR, id)).not.toBe(pulledScanId(TEAM, id));
    // Its organization is mirrored from neither remote: the copies are in none.
    const copy = await readLocal(pulledScanId(MIRROR, ids[0]!));
    expect(copy).toMatchObject({ organization_id: null, origin: { remote: 'mirror', id: ids[0] } });
    expect(await cursorOf(MIRROR)).toBe('m1');
    expect(rollupProblems(await storeInvariants(local.db))).toEqual([]);
  });

  it("one of our own pushes coming back is not stored again: the push log gets the remote's verdict", async () => {
    const mine = await submitScan(local, {
      tool: 'claude-code',
      action: 'edit',
      tokens: 340,
      organization_id: localOrg,
    });
    // As the remote stored our push: in its organization, under its policy (which flags it).
    const theirs = await submitScan(remote, {
      tool: 'claude-code',
      action: 'edit',
      tokens: 340,
      organization_id: remoteOrg,
    });
    expect(theirs.violations.length).toBe(1);
    await local.db
      .insertInto('sync_pushes')
      .values({ remote_id: TEAM, scan_id: mine.id, remote_scan_id: theirs.id, pushed_at: Date.now() })
      .execute();
    const result = await pull(await exportOf([theirs.id]), 'c5');
    expect(result).toEqual({ new: [], changed: [], unchanged: [], echoed: [mine.id] });
    expect(
      await local.db.selectFrom('scans').select('id').where('id', '=', pulledScanId(TEAM, theirs.id)).execute(),
    ).toEqual([]);
    const shown = await readLocal(mine.id);
    expect(shown.pushed).toEqual([
      { remote: 'team', id: theirs.id, violation_count: 1, worst_severity: theirs.violations[0]!.severity },
    ]);
    expect(shown.origin).toBeUndefined();
  });

  it("an upstream download without a scan document takes the one given beside it (the upstream's get-scan)", async () => {
    const timeline = timelineOf(3, Date.UTC(2026, 9, 1));
    const zip = buildZip([{ name: 'up-1/evidence.json', data: json(upstreamEvidence('up-1', timeline)) }]);
    const tokens = timeline.reduce((sum, entry) => sum + entry.tokens, 0);
    const document = {
      id: 'up-1',
      created_at: '2026-10-01T00:00:00.000Z',
      tool: 'aider',
      tokens,
      status: 'completed',
      violations: [{ id: 'v-1', rule: 'max_tokens_per_request', severity: 'low', message: 'big', timeline_index: 0 }],
      organization_id: remoteOrg,
    };
    const result = await pull(zip, 'c6', TEAM, { extraDocuments: [{ name: 'get-scan up-1', json: document }] });
    const id = pulledScanId(TEAM, 'up-1');
    expect(result.new).toEqual([id]);
    expect(await readLocal(id)).toMatchObject({
      tool: 'aider',
      organization_id: localOrg,
      origin: { remote: 'team', id: 'up-1' },
      violations: [{ id: pulledViolationId(TEAM, 'v-1'), rule: 'max_tokens_per_request' }],
    });
    // A document both beside the archive and in it is refused.
    const twice = pull(zip, 'never', TEAM, { extraDocuments: [{ name: 'up-1/evidence.json', json: document }] });
    await expect(twice).rejects.toThrow(/invalid_package|given beside the archive/);
    expect(await cursorOf()).toBe('c6');
  });

  it('the scan list finds pulled scans by source and by their id on the remote', async () => {
    const pulled = await listScans(local, 'source=pulled&limit=500');
    const all = await local.db.selectFrom('scans').select(['id', 'source']).execute();
    expect(pulled.total).toBe(all.filter((row) => row.source === 'pulled').length);
    expect(new Set(pulled.scans.map((row) => row.source))).toEqual(new Set(['pulled']));
    const submitted = await listScans(local, 'source=submitted');
    expect(submitted.scans.map((row) => row.source)).toEqual(['submitted']);
    const a = scans[0]!.id;
    const byOrigin = await listScans(local, `origin_id=${a}`);
    expect(byOrigin.total).toBe(2);
    expect(byOrigin.scans.map((row) => row.id).sort()).toEqual([pulledScanId(TEAM, a), pulledScanId(MIRROR, a)].sort());
    expect((await listScans(local, `origin_id=${a}&source=submitted`)).total).toBe(0);
    // Another user sees none of them: pulled scans are the remote's local user's.
    const other = await local.createUser('olga');
    expect((await listScans(local, `origin_id=${a}`, other)).total).toBe(0);
  });

  it('a push not heard of since its acknowledgement shows no verdict yet', async () => {
    const mine = await submitScan(local, { tool: 'claude-code', action: 'edit', tokens: 3 });
    expect((await readLocal(mine.id)).pushed).toBeUndefined();
    await local.db
      .insertInto('sync_pushes')
      .values({
        remote_id: MIRROR,
        scan_id: mine.id,
        remote_scan_id: 'scan_TTTTTTTTTTTTTTTTTTTTTTTTTT',
        pushed_at: Date.now(),
      })
      .execute();
    expect((await readLocal(mine.id)).pushed).toEqual([
      { remote: 'mirror', id: 'scan_TTTTTTTTTTTTTTTTTTTTTTTTTT', violation_count: null, worst_severity: null },
    ]);
  });

  it("a removed remote's scans stay, as local data: their origin keeps the id, without the remote", async () => {
    const id = pulledScanId(MIRROR, scans[0]!.id);
    await local.db.deleteFrom('remotes').where('id', '=', MIRROR).execute();
    expect(await readLocal(id)).toMatchObject({ source: 'pulled', origin: { remote: null, id: scans[0]!.id } });
    expect((await listScans(local, `origin_id=${scans[0]!.id}`)).total).toBe(2);
  });
});
