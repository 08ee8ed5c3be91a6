/**
 * Idempotent submit (docs/contract/api.md#idempotent-submit): a key stored with its scan; the same
 * key and body again answers that scan (200, Idempotent-Replayed), another body is 409; keys are
 * per user; requests racing with one key, in one server or in two servers on one store, store one
 * scan.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../../../src/main/db/index';
import { submitScan as submitScanService } from '../../../src/main/scans/scans.service';
import { bodyDigest } from '../../../src/main/scans/body-digest';
import type { Scan, SubmitScanBody } from '../../../src/shared/api/scans';
import { expectError } from '../../helpers/assertions';
import { createOrg, putPolicy } from '../../helpers/scan-fixtures';
import { createTestContext, type TestContext, type TestUser } from '../../helpers/test-app';

describe('POST /v1/scans with an Idempotency-Key', () => {
  let ctx: TestContext;
  let other: TestUser;
  let orgId: string;

  beforeAll(async () => {
    ctx = await createTestContext();
    other = await ctx.createUser('other');
    orgId = await createOrg(ctx, 'Acme');
    await putPolicy(ctx, orgId, {
      max_tokens_per_scan: 1000,
      max_tokens_per_request: null,
      allowed_tools: null,
      blocked_tools: [],
      blocked_actions: [],
    });
  });
  afterAll(async () => {
    await ctx.close();
  });

  const submit = (payload: unknown, key?: string, as: TestUser = ctx.owner) =>
    ctx.request({
      method: 'POST',
      url: '/v1/scans',
      payload: payload as object,
      headers: key === undefined ? {} : { 'idempotency-key': key },
      as,
    });

  const scanCount = async (): Promise<number> =>
    Number(
      (
        await ctx.db
          .selectFrom('scans')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('stores the first request as any submit (201) and answers the same request again with that scan (200)', async () => {
    const body = { tool: 'claude-code', action: 'edit', tokens: 1200, organization_id: orgId };
    const first = await submit(body, 'push:scan_01');
    expect(first.statusCode, first.body).toBe(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const scan = first.json() as Scan;
    expect(scan.violation_count).toBe(1);
    const before = await scanCount();

    // The same JSON value with its fields in another order and other white space.
    const again = await ctx.request({
      method: 'POST',
      url: '/v1/scans',
      headers: { 'idempotency-key': 'push:scan_01', 'content-type': 'application/json' },
      payload: `{ "organization_id": "${orgId}",  "tokens": 1200, "action": "edit", "tool": "claude-code" }`,
    });
    expect(again.statusCode, again.body).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.headers.location).toBe(`/v1/scans/${scan.id}`);
    expect(again.json()).toEqual(scan);
    expect(await scanCount()).toBe(before);
  });

  it('answers a repeat with the scan as GET answers it now, not as first stored', async () => {
    const body = { tool: 'cursor', action: 'chat', tokens: 5, organization_id: orgId };
    const scan = (await submit(body, 'key-now')).json() as Scan;
    await ctx.db.updateTable('scans').set({ status: 'failed' }).where('id', '=', scan.id).execute();
    const again = await submit(body, 'key-now');
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual({ ...scan, status: 'failed' });
    const read = await ctx.request({ method: 'GET', url: `/v1/scans/${scan.id}` });
    expect(again.json()).toEqual(read.json());
  });

  it('refuses the same key with another body (409, naming the header, never echoing the key) and stores nothing', async () => {
    const body = { tool: 'cursor', action: 'chat', tokens: 10 };
    expect((await submit(body, 'key-409')).statusCode).toBe(201);
    const before = await scanCount();
    for (const changed of [
      { ...body, tokens: 11 },
      { ...body, organization_id: orgId },
      { ...body, created_at: '2026-01-01T00:00:00.000Z' },
      { ...body, token_breakdown: {} },
    ]) {
      const error = expectError(await submit(changed, 'key-409'), 409, 'conflict');
      expect(error.details).toEqual([{ field: 'idempotency-key', message: 'was used with another body' }]);
      expect(JSON.stringify(error)).not.toContain('key-409');
    }
    expect(await scanCount()).toBe(before);
  });

  it("keeps each user's keys apart", async () => {
    const body = { tool: 'cursor', action: 'chat', tokens: 20 };
    const mine = (await submit(body, 'shared-key')).json() as Scan;
    const theirs = await submit(body, 'shared-key', other);
    expect(theirs.statusCode, theirs.body).toBe(201);
    expect((theirs.json() as Scan).id).not.toBe(mine.id);
    // Another user's key of the same text with another body is no conflict either.
    expect((await submit({ ...body, tokens: 21 }, 'shared-key-2', other)).statusCode).toBe(201);
    expect((await submit({ ...body, tokens: 22 }, 'shared-key-2')).statusCode).toBe(201);
  });

  it('stores a new scan every time without the header', async () => {
    const body = { tool: 'cursor', action: 'chat', tokens: 30 };
    const ids = new Set<string>();
    for (let n = 0; n < 3; n++) ids.add(((await submit(body)).json() as Scan).id);
    expect(ids.size).toBe(3);
  });

  it('takes keys of 1 to 200 printable ASCII characters and refuses others with 400 naming the header', async () => {
    const body = { tool: 'cursor', action: 'chat', tokens: 40 };
    for (const key of ['k', 'x'.repeat(200), 'with space ~!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}']) {
      expect((await submit(body, key)).statusCode, key).toBe(201);
      expect((await submit(body, key)).statusCode, key).toBe(200);
    }
    const before = await scanCount();
    for (const key of ['x'.repeat(201), 'tab\there', 'é-accent']) {
      const error = expectError(await submit(body, key), 400, 'validation_failed');
      expect(error.details.map((detail) => detail.field)).toEqual(['idempotency-key']);
    }
    // An empty header value is a key of no characters.
    const empty = await ctx.request({
      method: 'POST',
      url: '/v1/scans',
      payload: body,
      headers: { 'idempotency-key': '' },
    });
    expect(expectError(empty, 400, 'validation_failed').details[0]!.field).toBe('idempotency-key');
    expect(await scanCount()).toBe(before);
  });

  it('stores nothing for a refused first request, so the key stays free', async () => {
    const refused = await submit(
      { tool: 'cursor', action: 'chat', tokens: 1, organization_id: 'org_nowhere' },
      'k-free',
    );
    expectError(refused, 404, 'not_found');
    const stored = await submit({ tool: 'cursor', action: 'chat', tokens: 1 }, 'k-free');
    expect(stored.statusCode, stored.body).toBe(201);
  });

  it('stores one scan for many requests with one key arriving together', async () => {
    const body = {
      tool: 'cursor',
      action: 'chat',
      tokens: 3,
      timeline: [
        { timestamp: '2026-11-01T00:00:00.000Z', action: 'read', tokens: 1 },
        { timestamp: '2026-11-01T00:00:01.000Z', action: 'edit', tokens: 2 },
      ],
    };
    const before = await scanCount();
    const responses = await Promise.all(Array.from({ length: 20 }, () => submit(body, 'together')));
    const statuses = responses.map((response) => response.statusCode).sort();
    expect(statuses).toEqual([...Array<number>(19).fill(200), 201]);
    expect(new Set(responses.map((response) => (response.json() as Scan).id)).size).toBe(1);
    expect(await scanCount()).toBe(before + 1);
  });

  it('stores one scan for requests with one key racing through two servers of one store', async () => {
    // A second store on the same database: on PostgreSQL another pool, as another server process
    // has; on SQLite another writer of the file.
    const second: Store = openStore(ctx.workspace.database);
    try {
      const before = await scanCount();
      for (let round = 0; round < 5; round++) {
        const body: SubmitScanBody = { tool: 'cursor', action: 'race', tokens: round, organization_id: orgId };
        const key = { key: `race-${round}`, digest: bodyDigest(body) };
        const results = await Promise.all(
          Array.from({ length: 8 }, (_, n) =>
            submitScanService(n % 2 === 0 ? ctx.db : second.db, ctx.owner.id, body, key),
          ),
        );
        expect(results.filter((result) => !result.replayed)).toHaveLength(1);
        expect(new Set(results.map((result) => result.scan.id)).size).toBe(1);
      }
      expect(await scanCount()).toBe(before + 5);
      const keys = await ctx.db.selectFrom('submit_keys').select('key').where('key', 'like', 'race-%').execute();
      expect(keys).toHaveLength(5);
    } finally {
      await second.close();
    }
  });

  it('frees a key with its scan: deleting the organization deletes both', async () => {
    const doomed = await createOrg(ctx, 'Doomed');
    const body = { tool: 'cursor', action: 'chat', tokens: 50, organization_id: doomed };
    const first = (await submit(body, 'k-doomed')).json() as Scan;
    expect((await ctx.request({ method: 'DELETE', url: `/v1/organizations/${doomed}` })).statusCode).toBe(204);
    const keys = await ctx.db.selectFrom('submit_keys').selectAll().where('scan_id', '=', first.id).execute();
    expect(keys).toEqual([]);
    const again = await submit({ tool: 'cursor', action: 'chat', tokens: 50 }, 'k-doomed');
    expect(again.statusCode, again.body).toBe(201);
  });
});
