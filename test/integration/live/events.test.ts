/**
 * GET /v1/events: a viewer hears of scans as they are stored (submitted or imported), only those
 * it may see; nobody listening costs nothing; closing the server ends open streams. On the
 * PostgreSQL run, a viewer of one server process hears of scans stored through another.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../src/main/db/open-database';
import type { App } from '../../../src/main/http/route-types';
import { buildApp } from '../../../src/main/server/app';
import { expectError } from '../../helpers/assertions';
import {
  carries,
  createStreamingContext,
  heardIds,
  listenOn,
  openEventStream,
  scansOf,
  type EventStreamClient,
  type StreamingContext,
} from '../../helpers/event-stream';
import { createOrg, setRole, submitScan } from '../../helpers/scan-fixtures';
import type { TestContext, TestUser } from '../../helpers/test-app';
import { onPostgres, testDatabaseFor } from '../../helpers/test-database';

/** Backends holding a LISTEN: one per server process with viewers, none without. */
async function listeners(ctx: TestContext): Promise<number> {
  const { rows } = await sql<{ n: number }>`
    SELECT count(*) AS n FROM pg_stat_activity
    WHERE datname = current_database() AND query LIKE 'LISTEN%' AND pid <> pg_backend_pid()`.execute(ctx.db);
  return Number(rows[0]?.n ?? 0);
}

describe('GET /v1/events', () => {
  let streaming: StreamingContext;
  let ctx: TestContext;
  let port: number;
  let admin: TestUser;
  let member: TestUser;
  let outsider: TestUser;
  let orgId: string;

  beforeAll(async () => {
    // Requests go in-process to ctx.app; the streams need a socket: a second app on the same store.
    streaming = await createStreamingContext();
    ({ ctx, port } = streaming);
    admin = await ctx.createUser('admin');
    member = await ctx.createUser('member');
    outsider = await ctx.createUser('outsider');
    orgId = await createOrg(ctx, 'Acme');
    await setRole(ctx, orgId, admin, 'admin');
    await setRole(ctx, orgId, member, 'member');
  });
  afterAll(() => streaming.close());

  it('tells each viewer of the scans it may see, and of no others', async () => {
    const [asAdmin, asMember, asOutsider] = (await Promise.all(
      [admin, member, outsider].map((user) => openEventStream(port, user.token)),
    )) as [EventStreamClient, EventStreamClient, EventStreamClient];
    try {
      const memberOrg = await submitScan(
        ctx,
        { tool: 'cursor', action: 'edit', tokens: 5, organization_id: orgId },
        member,
      );
      const memberOwn = await submitScan(ctx, { tool: 'cursor', action: 'edit', tokens: 6 }, member);
      const outsiderOwn = await submitScan(ctx, { tool: 'cursor', action: 'edit', tokens: 7 }, outsider);
      await asAdmin.waitFor(carries(memberOrg.id));
      const heard = await asMember.waitFor(carries(memberOwn.id));
      await asOutsider.waitFor(carries(outsiderOwn.id));
      // A later scan the admin may see marks the point by which earlier events have arrived.
      const last = await submitScan(ctx, { tool: 'cursor', action: 'edit', tokens: 8, organization_id: orgId }, admin);
      await asAdmin.waitFor(carries(last.id));
      await asMember.waitFor(carries(memberOwn.id));

      expect(heardIds(asAdmin).sort()).toEqual([memberOrg.id, last.id].sort());
      expect(heardIds(asMember).sort()).toEqual([memberOrg.id, memberOwn.id].sort());
      expect(heardIds(asOutsider)).toEqual([outsiderOwn.id]);
      expect(scansOf(heard).find((scan) => scan.id === memberOwn.id)).toMatchObject({
        tool: 'cursor',
        tokens: 6,
        source: 'submitted',
        violation_count: 0,
        organization_id: null,
      });
      expect(scansOf(heard)[0]).not.toHaveProperty('submitted_by');
    } finally {
      for (const client of [asAdmin, asMember, asOutsider]) client.close();
    }
  });

  it('tells of imported scans once their import commits', async () => {
    const scan = await submitScan(ctx, { tool: 'copilot', action: 'review', tokens: 3 });
    const download = await ctx.request({ method: 'GET', url: `/v1/scans/${scan.id}/evidence/download` });
    expect(download.statusCode).toBe(200);
    const viewer = await openEventStream(port, member.token);
    try {
      const imported = await ctx.request({
        method: 'POST',
        url: '/v1/evidence/imports',
        headers: { 'content-type': 'application/zip' },
        payload: download.rawPayload,
        as: member,
      });
      expect(imported.statusCode, imported.body).toBe(201);
      const storedAs = (imported.json() as { ids: Record<string, string> }).ids[scan.id]!;
      const event = await viewer.waitFor(carries(storedAs));
      expect(scansOf(event).find((s) => s.id === storedAs)).toMatchObject({ source: 'imported', tool: 'copilot' });
    } finally {
      viewer.close();
    }
  });

  it.runIf(onPostgres)('holds a LISTEN connection only while a viewer is open', async () => {
    await expect.poll(() => listeners(ctx)).toBe(0);
    const viewer = await openEventStream(port, admin.token);
    await expect.poll(() => listeners(ctx)).toBe(1);
    viewer.close();
    await expect.poll(() => listeners(ctx)).toBe(0);
  });

  it.runIf(onPostgres)('tells a viewer of one server process of scans stored through another', async () => {
    const location = await testDatabaseFor(ctx.dataDir);
    const otherDb = openDatabase(location!);
    let other: App | undefined;
    const viewer = await openEventStream(port, admin.token);
    try {
      other = await buildApp({ db: otherDb, version: 'test', dataDir: ctx.dataDir });
      await expect.poll(() => listeners(ctx)).toBe(1);
      const response = await other.inject({
        method: 'POST',
        url: '/v1/scans',
        headers: { authorization: `Bearer ${member.token}` },
        payload: { tool: 'other-process', action: 'edit', tokens: 1, organization_id: orgId },
      });
      expect(response.statusCode, response.body).toBe(201);
      await viewer.waitFor(carries((response.json() as { id: string }).id));
    } finally {
      viewer.close();
      await other?.close();
      await otherDb.destroy();
    }
  });

  it('refuses a caller without a token, and other methods, in the API error shape', async () => {
    expectError(await ctx.request({ method: 'GET', url: '/v1/events', as: null }), 401, 'unauthorized');
    expectError(await ctx.request({ method: 'POST', url: '/v1/events' }), 405, 'method_not_allowed');
  });

  it('ends open streams when the server closes', async () => {
    const local = await listenOn(ctx);
    const viewer = await openEventStream(local.port, ctx.owner.token);
    const ended = new Promise<void>((resolve) => viewer.response.once('end', resolve));
    await local.app.close();
    await ended;
  });
});
