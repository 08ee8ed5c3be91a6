/**
 * Imported ids are scoped to the importer (docs/security.md, Imported ids): a package naming
 * another user's scan never reveals, blocks or shadows it. The proof compares two stores that
 * differ only in that scan: every answer to the other user is the same, byte for byte.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { derivedScanId, derivedViolationId } from '../../../../src/main/evidence/import/import-ids';
import { buildApp } from '../../../../src/main/server/app';
import type { App } from '../../../../src/main/http/route-types';
import { createUser } from '../../../../src/main/users/users.service';
import { openWorkspace, type Workspace } from '../../../../src/main/workspace/workspace';
import type { Evidence } from '../../../../src/shared/api/evidence';
import type { Scan } from '../../../../src/shared/api/scans';
import { expectError, snapshotDatabase } from '../../../helpers/assertions';
import { format1, json } from '../../../helpers/import-fixtures';
import { insertScans } from '../../../helpers/scan-fixtures';
import type { TestUser } from '../../../helpers/test-app';
import { buildZip, unzip } from '../../../helpers/zip-builder';
import { copyDataDir, testDatabaseFor } from '../../../helpers/test-database';

/** A store opened from a data directory, with A and B as users. */
interface Store {
  app: App;
  workspace: Workspace;
  request(
    as: TestUser,
    options: { method: 'GET' | 'POST'; url: string; payload?: unknown },
  ): Promise<LightMyRequestResponse>;
  importZip(as: TestUser, zip: Buffer): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

async function openStore(dataDir: string): Promise<Store> {
  const workspace = await openWorkspace(dataDir, { database: await testDatabaseFor(dataDir) });
  const app = await buildApp({ db: workspace.db, version: 'test', dataDir });
  await app.ready();
  const request: Store['request'] = (as, { method, url, payload }) =>
    app.inject({
      method,
      url,
      headers: { authorization: `Bearer ${as.token}` },
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  return {
    app,
    workspace,
    request,
    importZip: (as, zip) =>
      app.inject({
        method: 'POST',
        url: '/v1/evidence/imports',
        headers: { authorization: `Bearer ${as.token}`, 'content-type': 'application/zip' },
        payload: zip,
      }),
    async close() {
      await app.close();
      await workspace.close();
    },
  };
}

/** The upstream get-evidence shape: one timeline entry, the given violations. */
function upstreamEvidence(scanId: string, violations: { id: string }[] = []): Buffer {
  return json({
    scan_id: scanId,
    evidence: {
      request_count: 1,
      total_tokens: 9,
      timeline: [{ timestamp: '2026-11-02T08:00:00.000Z', action: 'read', tokens: 9 }],
      violations: violations.map(({ id }) => ({ id, rule: 'r', severity: 'low', message: 'm', timeline_index: 0 })),
    },
  });
}

const upstream = (scanId: string, violations: { id: string }[] = []): Buffer =>
  buildZip([{ name: 'evidence.json', data: upstreamEvidence(scanId, violations) }]);

describe('imported ids are scoped to the importer', () => {
  const root = mkdtempSync(join(tmpdir(), 'scandesk-import-ids-'));
  let a: TestUser;
  let b: TestUser;
  /** A's private scan X, as A sees it, and A's package of it. */
  let x: Scan;
  let xEvidence: Evidence;
  let samePackage: Buffer;
  let otherPackage: Buffer;
  /** Fresh pairs of stores: `withX` holds A's scan X, `withoutX` is the same store without it. */
  let pairs = 0;
  const base = join(root, 'base');
  const baseWithX = join(root, 'base-with-x');

  async function pair(): Promise<{ withX: Store; withoutX: Store }> {
    pairs += 1;
    const withX = join(root, `with-${pairs}`);
    const withoutX = join(root, `without-${pairs}`);
    await copyDataDir(baseWithX, withX);
    await copyDataDir(base, withoutX);
    return { withX: await openStore(withX), withoutX: await openStore(withoutX) };
  }

  beforeAll(async () => {
    // Users first, then a copy: both stores know A and B under the same ids and tokens.
    const setup = await openWorkspace(base, { database: await testDatabaseFor(base) });
    const asTestUser = ({ user, token }: Awaited<ReturnType<typeof createUser>>): TestUser => ({
      id: user.id,
      name: user.name,
      token,
    });
    a = asTestUser(await createUser(setup.db, 'alice'));
    b = asTestUser(await createUser(setup.db, 'bob'));
    await setup.close();
    await copyDataDir(base, baseWithX);

    const store = await openStore(baseWithX);
    try {
      // A's organization and policy, so that X has violations; B is in none of it.
      const org = await store.request(a, { method: 'POST', url: '/v1/organizations', payload: { name: 'Private' } });
      const orgId = (org.json() as { id: string }).id;
      const policy = await store.app.inject({
        method: 'PUT',
        url: `/v1/organizations/${orgId}/policy`,
        headers: { authorization: `Bearer ${a.token}` },
        payload: {
          max_tokens_per_scan: null,
          max_tokens_per_request: 100,
          allowed_tools: null,
          blocked_tools: [],
          blocked_actions: ['shell'],
        },
      });
      expect(policy.statusCode, policy.body).toBe(200);
      const submitted = await store.request(a, {
        method: 'POST',
        url: '/v1/scans',
        payload: {
          tool: 'claude-code',
          action: 'secret-project',
          tokens: 700,
          organization_id: orgId,
          token_breakdown: { input: 600, output: 100 },
          timeline: [
            { timestamp: '2026-11-01T10:00:00.000Z', action: 'shell', tokens: 500 },
            { timestamp: '2026-11-01T10:00:01.000Z', action: 'read', tokens: 200 },
          ],
        },
      });
      expect(submitted.statusCode, submitted.body).toBe(201);
      x = submitted.json() as Scan;
      expect(x.violations.length).toBeGreaterThan(1);
      xEvidence = (await store.request(a, { method: 'GET', url: `/v1/scans/${x.id}/evidence` })).json() as Evidence;
      const download = await store.request(a, { method: 'GET', url: `/v1/scans/${x.id}/evidence/download` });
      expect(download.statusCode).toBe(200);
      samePackage = download.rawPayload;
      const files = await unzip(samePackage);
      const scanPath = `scans/${x.id}/scan.json`;
      const changed = { ...(JSON.parse(files.get(scanPath)!.toString()) as Scan), tool: 'cursor' };
      otherPackage = format1(new Map(files).set(scanPath, json(changed)), [x.id]);
      expect((await store.request(b, { method: 'GET', url: `/v1/scans/${x.id}` })).statusCode, 'B cannot see X').toBe(
        404,
      );
    } finally {
      await store.close();
    }
  });

  afterAll(() => rmSync(root, { recursive: true, force: true }));

  /** The same import into both stores: the same status and the same bytes. */
  async function sameAnswer(stores: { withX: Store; withoutX: Store }, as: TestUser, zip: Buffer) {
    const withX = await stores.withX.importZip(as, zip);
    const withoutX = await stores.withoutX.importZip(as, zip);
    expect(withX.statusCode).toBe(withoutX.statusCode);
    expect(withX.headers['content-type']).toBe(withoutX.headers['content-type']);
    expect(withX.body).toBe(withoutX.body);
    return withX;
  }

  async function scanOf(store: Store, as: TestUser, id: string) {
    const scan = await store.request(as, { method: 'GET', url: `/v1/scans/${id}` });
    const evidence = await store.request(as, { method: 'GET', url: `/v1/scans/${id}/evidence` });
    expect(scan.statusCode, scan.body).toBe(200);
    return { scan: scan.json() as Scan, evidence: evidence.json() as Evidence };
  }

  it.each([
    ['the same content', () => samePackage],
    ['different content', () => otherPackage],
  ])(
    "B importing a package that names A's X with %s: 201 under B's derived id, as if X did not exist",
    async (_label, zip) => {
      const stores = await pair();
      try {
        const derived = derivedScanId(b.id, x.id);
        // X's own row: B's copy names X too, as the id it had in B's package.
        const isX = (row: unknown) => (JSON.parse(row as string) as { id: string }).id === x.id;
        const xRows = (await snapshotDatabase(stores.withX.workspace.db)).scans!.filter(isX);
        const first = await sameAnswer(stores, b, zip());
        expect(first.statusCode, first.body).toBe(201);
        expect(first.json()).toEqual({ imported: [derived], unchanged: [], ids: { [x.id]: derived } });

        // B's copy: B's own, with derived violation ids; X's content as the package has it.
        const copy = await scanOf(stores.withX, b, derived);
        expect(copy.scan.id).toBe(derived);
        expect(copy.scan.violations.map((v) => v.id)).toEqual(x.violations.map((v) => derivedViolationId(b.id, v.id)));
        expect(copy.evidence.evidence.timeline).toEqual(xEvidence.evidence.timeline);
        expect(copy).toEqual(await scanOf(stores.withoutX, b, derived));

        // Again: B's own scan now, so unchanged, in both stores alike.
        const again = await sameAnswer(stores, b, zip());
        expect(again.json()).toEqual({ imported: [], unchanged: [derived], ids: { [x.id]: derived } });

        // A's scan is untouched, and A importing its own X still compares with it.
        expect(await scanOf(stores.withX, a, x.id)).toEqual({ scan: x, evidence: xEvidence });
        expect((await snapshotDatabase(stores.withX.workspace.db)).scans!.filter(isX)).toEqual(xRows);
        const own = await stores.withX.importZip(a, samePackage);
        expect(own.statusCode, own.body).toBe(201);
        expect(own.json()).toEqual({ imported: [], unchanged: [x.id], ids: { [x.id]: x.id } });
        const ownConflict = expectError(await stores.withX.importZip(a, otherPackage), 409, 'conflict');
        expect(ownConflict.details[0]!.message).toBe(`${x.id}: tool differs`);
      } finally {
        await stores.withX.close();
        await stores.withoutX.close();
      }
    },
  );

  it("B's own derived scan compares like any own scan: a different package under the same id is 409", async () => {
    const stores = await pair();
    try {
      await sameAnswer(stores, b, samePackage);
      const before = await snapshotDatabase(stores.withX.workspace.db);
      const conflict = await sameAnswer(stores, b, otherPackage);
      const error = expectError(conflict, 409, 'conflict');
      expect(error.message).toBe(
        `scan ${x.id} (stored as ${derivedScanId(b.id, x.id)}) already exists with different content`,
      );
      expect(error.details[0]!.message).toBe(`${x.id}: tool differs`);
      expect(await snapshotDatabase(stores.withX.workspace.db)).toEqual(before);
    } finally {
      await stores.withX.close();
      await stores.withoutX.close();
    }
  });

  it("a package reusing A's violation ids under a new scan is no oracle: 201, derived ids, no foreign id", async () => {
    const stores = await pair();
    try {
      const response = await sameAnswer(stores, b, upstream('fresh_scan', x.violations.slice(0, 1)));
      expect(response.statusCode, response.body).toBe(201);
      const derived = derivedScanId(b.id, 'fresh_scan');
      expect(response.json()).toEqual({ imported: [derived], unchanged: [], ids: { fresh_scan: derived } });
      const copy = await scanOf(stores.withX, b, derived);
      expect(copy.scan.violations.map((v) => v.id)).toEqual([derivedViolationId(b.id, x.violations[0]!.id)]);
    } finally {
      await stores.withX.close();
      await stores.withoutX.close();
    }
  });

  it('a violation id already taken is named by its package id, never by the scan holding it', async () => {
    const stores = await pair();
    try {
      await sameAnswer(stores, b, upstream('first', [{ id: 'v_shared' }]));
      const holder = derivedScanId(b.id, 'first');
      const before = await snapshotDatabase(stores.withX.workspace.db);
      const response = await sameAnswer(stores, b, upstream('second', [{ id: 'v_shared' }]));
      const error = expectError(response, 409, 'conflict');
      expect(error.message).toBe('violation v_shared of scan second: the id it would be stored under is in use');
      expect(error.details).toEqual([{ field: 'violations', entry: 'evidence.json', message: error.message }]);
      expect(response.body).not.toContain(holder);
      expect(await snapshotDatabase(stores.withX.workspace.db)).toEqual(before);
    } finally {
      await stores.withX.close();
      await stores.withoutX.close();
    }
  });

  it('ids maps every package id, `__proto__` and `constructor` included, to where it is stored', async () => {
    const stores = await pair();
    try {
      const both = buildZip([
        { name: 'a.json', data: upstreamEvidence('__proto__') },
        { name: 'b.json', data: upstreamEvidence('constructor') },
      ]);
      const response = await sameAnswer(stores, b, both);
      expect(response.statusCode, response.body).toBe(201);
      const proto = derivedScanId(b.id, '__proto__');
      const ctor = derivedScanId(b.id, 'constructor');
      expect(response.body).toBe(
        `{"imported":["${proto}","${ctor}"],"unchanged":[],"ids":{"__proto__":"${proto}","constructor":"${ctor}"}}`,
      );
    } finally {
      await stores.withX.close();
      await stores.withoutX.close();
    }
  });

  it('a derived id held by a scan from before the rule is refused without naming or touching it', async () => {
    const stores = await pair();
    try {
      const squatted = derivedScanId(b.id, 'legacy');
      await insertScans(stores.withX.workspace.db, [
        { id: squatted, created_at: Date.UTC(2026, 0, 1), submitted_by: a.id },
      ]);
      const before = await snapshotDatabase(stores.withX.workspace.db);
      const error = expectError(await stores.withX.importZip(b, upstream('legacy')), 409, 'conflict');
      expect(error.message).toBe('scan legacy cannot be stored: the id it would take is in use');
      expect(JSON.stringify(error)).not.toContain(squatted);
      expect(JSON.stringify(error)).not.toContain(a.id);
      expect(await snapshotDatabase(stores.withX.workspace.db)).toEqual(before);
    } finally {
      await stores.withX.close();
      await stores.withoutX.close();
    }
  });
});
