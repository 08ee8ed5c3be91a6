/**
 * Pulled packages in a plain upstream's own layout: the fake upstream's evidence downloads (whose
 * shapes are its own, written from UPSTREAM.md) stored as the remote's scans; a re-evaluation
 * there is changed here; a download without a scan document takes the get-scan answer beside it.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pulledScanId, pulledViolationId } from '../../../../src/main/evidence/import/import-ids';
import { DEFAULT_IMPORT_LIMITS } from '../../../../src/main/evidence/import/import-limits';
import {
  importPulledPackage,
  type PulledImportOptions,
} from '../../../../src/main/evidence/import/pulled-import.service';
import type { Scan } from '../../../../src/shared/api/scans';
import { startFakeUpstream, type FakeUpstream } from '../../../fixtures/fake-upstream/fake-upstream';
import { createOrg } from '../../../helpers/scan-fixtures';
import { rollupProblems, storeInvariants } from '../../../helpers/store-checks';
import { createTestContext, type TestContext } from '../../../helpers/test-app';
import { insertRemote } from '../../../helpers/sync-fixtures';

const REMOTE = 'remote-upstream';
const timeline = [
  { timestamp: '2026-10-05T09:00:00.000Z', action: 'read', tokens: 120 },
  { timestamp: '2026-10-05T09:00:03.000Z', action: 'edit', tokens: 30 },
  { timestamp: '2026-10-05T09:00:09.000Z', action: 'chat', tokens: 7 },
];

describe('pulling from a plain upstream', () => {
  let upstream: FakeUpstream;
  let local: TestContext;
  let dir: string;
  let localOrg: string;
  let files = 0;

  beforeAll(async () => {
    upstream = await startFakeUpstream({
      organizations: [{ id: 'org_up', name: 'Upstream team', role: 'admin' }],
      scans: [
        {
          id: 'scan_up_1',
          created_at: '2026-10-05T09:00:00.000Z',
          tool: 'claude-code',
          tokens: 157,
          action: 'read',
          evidence: { timeline },
          violations: [
            { id: 'v_up_1', rule: 'max_tokens_per_request', severity: 'high', message: '120 > 100', timeline_index: 0 },
          ],
          extra: { organization_id: 'org_up' },
        },
        {
          id: 'scan_up_2',
          created_at: '2026-10-06T10:00:00.000Z',
          tool: 'aider',
          tokens: 11,
          action: 'edit',
          scanDocumentInZip: false,
        },
      ],
    });
    local = await createTestContext();
    dir = mkdtempSync(join(tmpdir(), 'scandesk-pulled-upstream-'));
    const now = Date.now();
    await insertRemote(local.db, {
      id: REMOTE,
      name: 'up',
      url: upstream.url,
      user_id: local.owner.id,
      kind: 'upstream',
      push_since: now,
      created_at: now,
    });
    localOrg = await createOrg(local, 'Upstream team');
    await local.db
      .updateTable('organizations')
      .set({ remote_id: REMOTE, remote_org_id: 'org_up' })
      .where('id', '=', localOrg)
      .execute();
  });

  afterAll(async () => {
    await upstream?.close();
    await local?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function getUpstream(path: string): Promise<Response> {
    const response = await fetch(`${upstream.url}${path}`, { headers: { authorization: `Bearer ${upstream.token}` } });
    expect(response.status).toBe(200);
    return response;
  }

  /** The upstream's evidence download of `id`, stored as the sync stores it. */
  async function pull(id: string, options: PulledImportOptions = {}) {
    const path = join(dir, `download-${files++}.zip`);
    writeFileSync(path, Buffer.from(await (await getUpstream(`/v1/scans/${id}/evidence/download`)).arrayBuffer()));
    const placement = { remoteId: REMOTE, userId: local.owner.id, organizations: new Map([['org_up', localOrg]]) };
    return importPulledPackage(local.db, path, DEFAULT_IMPORT_LIMITS, placement, options);
  }

  async function readLocal(id: string): Promise<Scan> {
    const response = await local.request({ method: 'GET', url: `/v1/scans/${id}` });
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as Scan;
  }

  it("stores an upstream's download as its scan, in the organization's mirror", async () => {
    const id = pulledScanId(REMOTE, 'scan_up_1');
    expect(await pull('scan_up_1')).toEqual({ new: [id], changed: [], unchanged: [], echoed: [] });
    expect(await readLocal(id)).toMatchObject({
      source: 'pulled',
      tool: 'claude-code',
      tokens: 157,
      created_at: '2026-10-05T09:00:00.000Z',
      organization_id: localOrg,
      origin: { remote: 'up', id: 'scan_up_1' },
      violations: [{ id: pulledViolationId(REMOTE, 'v_up_1'), rule: 'max_tokens_per_request', severity: 'high' }],
    });
    const evidence = await local.request({ method: 'GET', url: `/v1/scans/${id}/evidence` });
    expect((evidence.json() as { evidence: { timeline: unknown } }).evidence.timeline).toEqual(timeline);
    expect(await pull('scan_up_1')).toEqual({ new: [], changed: [], unchanged: [id], echoed: [] });
  });

  it('a re-evaluation there is changed here', async () => {
    upstream.setViolations('scan_up_1', [
      { id: 'v_up_2', rule: 'max_tokens_per_request', severity: 'medium', message: '120 > 110', timeline_index: 0 },
      { id: 'v_up_3', rule: 'blocked_action', severity: 'low', message: 'chat', timeline_index: 2 },
    ]);
    const id = pulledScanId(REMOTE, 'scan_up_1');
    expect(await pull('scan_up_1')).toEqual({ new: [], changed: [id], unchanged: [], echoed: [] });
    const pulled = await readLocal(id);
    expect(pulled.violations.map((v) => v.id)).toEqual([
      pulledViolationId(REMOTE, 'v_up_2'),
      pulledViolationId(REMOTE, 'v_up_3'),
    ]);
    expect(rollupProblems(await storeInvariants(local.db))).toEqual([]);
  });

  it('a download without a scan document takes the get-scan answer given beside it', async () => {
    const document = await (await getUpstream('/v1/scans/scan_up_2')).json();
    const id = pulledScanId(REMOTE, 'scan_up_2');
    const result = await pull('scan_up_2', { extraDocuments: [{ name: 'GET /v1/scans/scan_up_2', json: document }] });
    expect(result.new).toEqual([id]);
    expect(await readLocal(id)).toMatchObject({ tool: 'aider', tokens: 11, created_at: '2026-10-06T10:00:00.000Z' });
  });
});
