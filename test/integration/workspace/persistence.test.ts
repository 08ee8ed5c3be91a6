import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Db } from '../../../src/main/db/database';
import { buildApp } from '../../../src/main/server/app';
import type { App } from '../../../src/main/http/route-types';
import { createUser } from '../../../src/main/users/users.service';
import { openWorkspace, type Workspace } from '../../../src/main/workspace/workspace';
import { insertTimeline } from '../../../src/main/evidence/timeline/timeline-writes.repository';
import { expectError, snapshotDatabase } from '../../helpers/assertions';
import { createTestContext, type TestContext, type TestUser } from '../../helpers/test-app';
import { onPostgres, testDatabaseFor } from '../../helpers/test-database';

interface Opened {
  workspace: Workspace;
  app: App;
  close(): Promise<void>;
}

async function open(dataDir: string): Promise<Opened> {
  const workspace = await openWorkspace(dataDir, { database: await testDatabaseFor(dataDir) });
  const app = await buildApp({ db: workspace.db, version: 'test' });
  await app.ready();
  return {
    workspace,
    app,
    async close() {
      await app.close();
      await workspace.close();
    },
  };
}

const bearer = (token: string): { authorization: string } => ({ authorization: `Bearer ${token}` });

describe('closing and reopening a data directory', () => {
  const dirs: string[] = [];
  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('keeps users, tokens, organizations, members and teams', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'scandesk-persist-'));
    dirs.push(dataDir);

    const first = await open(dataDir);
    const token = first.workspace.createdToken;
    expect(token).toMatch(/^sdt_/);
    if (!token) throw new Error('first start creates a token');
    const other = await createUser(first.workspace.db, 'other');
    const org = await first.app.inject({
      method: 'POST',
      url: '/v1/organizations',
      payload: { name: 'Durable' },
      headers: bearer(token),
    });
    expect(org.statusCode, org.body).toBe(201);
    const orgBody = org.json() as { id: string };
    const team = await first.app.inject({
      method: 'POST',
      url: `/v1/organizations/${orgBody.id}/teams`,
      payload: { name: 'Kept' },
      headers: bearer(token),
    });
    expect(team.statusCode, team.body).toBe(201);
    const teamId = (team.json() as { id: string }).id;
    const added = await first.app.inject({
      method: 'POST',
      url: `/v1/teams/${teamId}/members`,
      payload: { user_id: other.user.id },
      headers: bearer(token),
    });
    expect(added.statusCode, added.body).toBe(201);
    const orgBefore = (
      await first.app.inject({ method: 'GET', url: `/v1/organizations/${orgBody.id}`, headers: bearer(token) })
    ).json();
    const snapshotBefore = await snapshotDatabase(first.workspace.db);
    await first.close();

    const second = await open(dataDir);
    try {
      expect(second.workspace.createdToken).toBeNull();
      expect(await snapshotDatabase(second.workspace.db)).toEqual(snapshotBefore);

      const me = await second.app.inject({ method: 'GET', url: '/v1/me', headers: bearer(token) });
      expect(me.statusCode, me.body).toBe(200);
      expect(me.json()).toMatchObject({ name: 'local' });
      const otherMe = await second.app.inject({ method: 'GET', url: '/v1/me', headers: bearer(other.token) });
      expect(otherMe.statusCode, otherMe.body).toBe(200);

      const list = await second.app.inject({ method: 'GET', url: '/v1/organizations', headers: bearer(token) });
      expect(list.json()).toEqual({ organizations: [{ id: orgBody.id, name: 'Durable', role: 'owner' }] });
      const orgAfter = await second.app.inject({
        method: 'GET',
        url: `/v1/organizations/${orgBody.id}`,
        headers: bearer(token),
      });
      expect(orgAfter.json()).toEqual(orgBefore);
      const members = await second.app.inject({
        method: 'GET',
        url: `/v1/teams/${teamId}/members`,
        headers: bearer(token),
      });
      expect((members.json() as { members: { user_id: string }[] }).members.map((m) => m.user_id)).toEqual([
        other.user.id,
      ]);

      // Still writable after the reopen.
      const renamed = await second.app.inject({
        method: 'PATCH',
        url: `/v1/organizations/${orgBody.id}`,
        payload: { name: 'Durable 2' },
        headers: bearer(token),
      });
      expect(renamed.statusCode, renamed.body).toBe(200);
    } finally {
      await second.close();
    }

    // A third start sees the write of the second.
    const third = await open(dataDir);
    try {
      const org3 = await third.app.inject({
        method: 'GET',
        url: `/v1/organizations/${orgBody.id}`,
        headers: bearer(token),
      });
      expect(org3.json()).toMatchObject({ name: 'Durable 2' });
    } finally {
      await third.close();
    }
  });
});

/** Rows of every table that belong to an organization, found by hand through the schema. */
async function rowsOfOrganization(db: Db, orgId: string): Promise<Record<string, number>> {
  const count = async (query: Promise<{ n: number | string | bigint }>): Promise<number> => Number((await query).n);
  const scanIds = db.selectFrom('scans').select('id').where('organization_id', '=', orgId);
  const teamIds = db.selectFrom('teams').select('id').where('organization_id', '=', orgId);
  return {
    organizations: await count(
      db
        .selectFrom('organizations')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('id', '=', orgId)
        .executeTakeFirstOrThrow(),
    ),
    memberships: await count(
      db
        .selectFrom('memberships')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('organization_id', '=', orgId)
        .executeTakeFirstOrThrow(),
    ),
    teams: await count(
      db
        .selectFrom('teams')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('organization_id', '=', orgId)
        .executeTakeFirstOrThrow(),
    ),
    team_members: await count(
      db
        .selectFrom('team_members')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('team_id', 'in', teamIds)
        .executeTakeFirstOrThrow(),
    ),
    policies: await count(
      db
        .selectFrom('policies')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('organization_id', '=', orgId)
        .executeTakeFirstOrThrow(),
    ),
    scans: await count(
      db
        .selectFrom('scans')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('organization_id', '=', orgId)
        .executeTakeFirstOrThrow(),
    ),
    timeline_entries: await count(
      db
        .selectFrom('timeline_entries')
        .innerJoin('timelines', 'timelines.id', 'timeline_entries.timeline_id')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('scan_id', 'in', scanIds)
        .executeTakeFirstOrThrow(),
    ),
    violations: await count(
      db
        .selectFrom('violations')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('scan_id', 'in', scanIds)
        .executeTakeFirstOrThrow(),
    ),
  };
}

describe('DELETE /v1/organizations/:id', () => {
  let ctx: TestContext;
  let member: TestUser;
  let orgId: string;
  let keptOrgId: string;

  /** An organization with an admin, a member, two teams with members, its policy and a scan with evidence. */
  async function populatedOrganization(name: string): Promise<string> {
    const org = await ctx.request({ method: 'POST', url: '/v1/organizations', payload: { name } });
    expect(org.statusCode, org.body).toBe(201);
    const id = (org.json() as { id: string }).id;
    for (const teamName of ['Alpha', 'Beta']) {
      const team = await ctx.request({
        method: 'POST',
        url: `/v1/organizations/${id}/teams`,
        payload: { name: teamName },
      });
      expect(team.statusCode, team.body).toBe(201);
      const teamId = (team.json() as { id: string }).id;
      for (const user of [ctx.owner, member]) {
        const added = await ctx.request({
          method: 'POST',
          url: `/v1/teams/${teamId}/members`,
          payload: { user_id: user.id },
        });
        expect(added.statusCode, added.body).toBe(201);
      }
    }
    // Straight into the store: the scan belongs to the organization, with a timeline and a violation.
    const scanId = `scan_${name}`;
    await ctx.db
      .insertInto('scans')
      .values({
        id: scanId,
        created_at: Date.parse('2026-11-21T00:00:00.000Z'),
        tool: 'tool',
        action: 'act',
        tokens: 30,
        status: 'completed',
        source: 'submitted',
        organization_id: id,
        submitted_by: member.id,
        token_breakdown: '{}',
        request_count: 2,
        violation_count: 1,
        worst_severity: 2,
        change_seq: 0,
      })
      .execute();
    await insertTimeline(ctx.db, scanId, [
      { timestamp: Date.parse('2026-11-21T00:00:00.000Z'), action: 'act', tokens: 10 },
      { timestamp: Date.parse('2026-11-21T00:00:01.000Z'), action: 'act', tokens: 20 },
    ]);
    await ctx.db
      .insertInto('violations')
      .values({
        id: `vio_${name}`,
        scan_id: scanId,
        seq: 0,
        rule: 'tokens.scan_limit',
        severity: 'medium',
        message: 'too many',
        timeline_index: null,
      })
      .execute();
    return id;
  }

  beforeEach(async () => {
    ctx = await createTestContext();
    member = await ctx.createUser('member');
    orgId = await populatedOrganization('doomed');
    keptOrgId = await populatedOrganization('kept');
    expect(await rowsOfOrganization(ctx.db, orgId)).toEqual({
      organizations: 1,
      memberships: 2,
      teams: 2,
      team_members: 4,
      policies: 1,
      scans: 1,
      timeline_entries: 2,
      violations: 1,
    });
  });
  afterEach(() => ctx.close());

  it('removes its teams, team members, memberships, policy and scans with their evidence — and nothing else', async () => {
    const keptBefore = await rowsOfOrganization(ctx.db, keptOrgId);
    const usersBefore = await ctx.db.selectFrom('users').selectAll().execute();

    const response = await ctx.request({ method: 'DELETE', url: `/v1/organizations/${orgId}` });
    expect(response.statusCode, response.body).toBe(204);
    expect(response.body).toBe('');

    expect(await rowsOfOrganization(ctx.db, orgId)).toEqual({
      organizations: 0,
      memberships: 0,
      teams: 0,
      team_members: 0,
      policies: 0,
      scans: 0,
      timeline_entries: 0,
      violations: 0,
    });
    expect(await rowsOfOrganization(ctx.db, keptOrgId)).toEqual(keptBefore);
    expect(await ctx.db.selectFrom('users').selectAll().execute()).toEqual(usersBefore);
    expectError(await ctx.request({ method: 'GET', url: `/v1/organizations/${orgId}` }), 404, 'not_found');
    expectError(await ctx.request({ method: 'GET', url: `/v1/organizations/${orgId}`, as: member }), 404, 'not_found');
    const list = await ctx.request({ method: 'GET', url: '/v1/organizations', as: member });
    expect((list.json() as { organizations: { id: string }[] }).organizations.map((o) => o.id)).toEqual([keptOrgId]);
  });

  it('is atomic: a failure part-way through removes nothing and answers 500 internal', async () => {
    // The last thing the cascade reaches fails, after teams, members and memberships are gone.
    if (onPostgres) {
      await sql`create function refuse_violation_delete() returns trigger language plpgsql as $$
        begin raise exception 'secret trigger detail'; end $$`.execute(ctx.db);
      await sql`create trigger refuse_violation_delete before delete on violations
        for each row execute function refuse_violation_delete()`.execute(ctx.db);
    } else {
      await sql`create trigger refuse_violation_delete before delete on violations begin select raise(abort, 'secret trigger detail'); end`.execute(
        ctx.db,
      );
    }
    const before = await snapshotDatabase(ctx.db);

    const response = await ctx.request({ method: 'DELETE', url: `/v1/organizations/${orgId}` });
    const error = expectError(response, 500, 'internal');
    expect(response.body).not.toContain('secret trigger detail');
    expect(error.details).toEqual([]);

    expect(await snapshotDatabase(ctx.db)).toEqual(before);
    expect((await rowsOfOrganization(ctx.db, orgId)).team_members).toBe(4);

    // Once the obstacle is gone the same delete goes through whole.
    if (onPostgres) await sql`drop function refuse_violation_delete cascade`.execute(ctx.db);
    else await sql`drop trigger refuse_violation_delete`.execute(ctx.db);
    expect((await ctx.request({ method: 'DELETE', url: `/v1/organizations/${orgId}` })).statusCode).toBe(204);
    expect(Object.values(await rowsOfOrganization(ctx.db, orgId)).every((n) => n === 0)).toBe(true);
  });

  it('only the owner may delete; refused deletes change nothing', async () => {
    const admin = await ctx.createUser('admin');
    const put = await ctx.request({
      method: 'PUT',
      url: `/v1/organizations/${orgId}/members/${admin.id}`,
      payload: { role: 'admin' },
    });
    expect(put.statusCode, put.body).toBe(200);
    const outsider = await ctx.createUser('outsider');
    const before = await snapshotDatabase(ctx.db);

    expectError(
      await ctx.request({ method: 'DELETE', url: `/v1/organizations/${orgId}`, as: admin }),
      403,
      'forbidden',
    );
    expectError(
      await ctx.request({ method: 'DELETE', url: `/v1/organizations/${orgId}`, as: member }),
      403,
      'forbidden',
    );
    expectError(
      await ctx.request({ method: 'DELETE', url: `/v1/organizations/${orgId}`, as: outsider }),
      404,
      'not_found',
    );
    expect(await snapshotDatabase(ctx.db)).toEqual(before);
  });
});
