import fc from 'fast-check';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import type { ScanList, ScanStatus } from '../../../src/shared/api/scans';
import { deleteUser } from '../../../src/main/users/users.repository';
import { createRoleWorld, fixtureScanId, insertScans } from '../../helpers/scan-fixtures';
import { insertRemote } from '../../helpers/sync-fixtures';
import { createTestContext, type TestContext, type TestUser } from '../../helpers/test-app';

// The list's `total` comes from the scan_counts rollup without a time range, and from the
// scan_days rollup for the whole days of one and scan_hours for the whole hours of its partial days. These runs write scans through every path that
// changes them (inserts, updates, deleting an organization or a user, both of which cascade) and
// check the rollups against a recount, and every user's totals, over ranges aligned to days or
// not, against the visibility rule worked out here from the raw rows. Some scans are pulled from
// one of two remotes, and a remote may be removed (its scans become local): the `origin` filter's
// totals come from the same rollups.

const TOOLS = ['claude-code', 'cursor', 'ChatGPT'] as const;
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const ORIGIN = Date.UTC(2026, 10, 1);
/**
 * Time ranges: everything (the plain count), then whole days (the scan_days rollup), partial days
 * at either end (whole hours from scan_hours), some ending mid-hour, a range inside one day and
 * one across a midnight without a whole day.
 */
const RANGES: { since?: number; until?: number }[] = [
  { since: Date.UTC(2000, 0, 1) },
  { since: ORIGIN + DAY, until: ORIGIN + 4 * DAY },
  { since: ORIGIN + DAY + 7 * HOUR, until: ORIGIN + 3 * DAY + 13 * HOUR },
  { since: ORIGIN + 2 * DAY + 1 },
  { until: ORIGIN + 2 * DAY - 1 },
  { since: ORIGIN + DAY + 2 * HOUR, until: ORIGIN + DAY + 20 * HOUR },
  // Each end mid-hour, in an hour whose scan lies on the range's side (scans at n × 5 h 13 min).
  { since: ORIGIN + DAY + 7 * HOUR + 10 * MINUTE, until: ORIGIN + 3 * DAY + 11 * HOUR + 40 * MINUTE },
  { since: ORIGIN + DAY + 2 * HOUR + 1 * MINUTE, until: ORIGIN + DAY + 17 * HOUR + 50 * MINUTE },
  { since: ORIGIN + DAY + 22 * HOUR + 50 * MINUTE, until: ORIGIN + 2 * DAY + 9 * HOUR + 30 * MINUTE },
];
const rangeQuery = ({ since, until }: { since?: number; until?: number }): string =>
  (since === undefined ? '' : `&since=${new Date(since).toISOString()}`) +
  (until === undefined ? '' : `&until=${new Date(until).toISOString()}`);
const STATUSES: readonly ScanStatus[] = ['pending', 'running', 'completed', 'failed'];

type Step =
  | {
      kind: 'insert';
      scans: {
        org: number;
        user: number;
        tool: number;
        status: number;
        violations: number;
        origin: number;
        imported?: boolean;
      }[];
    }
  | { kind: 'update'; scan: number; org: number; tool: number; status: number; violations: number }
  | { kind: 'delete-scan'; scan: number }
  | { kind: 'delete-org'; org: number }
  | { kind: 'delete-user'; user: number }
  | { kind: 'delete-remote'; remote: number };

/** Two remotes, filling the owner's and the member's stores. */
const REMOTES = ['team', 'lab'] as const;

const index = (n: number) => fc.nat({ max: n - 1 });
const scanShape = fc.record({
  org: index(3),
  user: index(3),
  tool: index(TOOLS.length),
  status: index(STATUSES.length),
  violations: fc.constantFrom(0, 0, 1, 3),
  // 0: made here; 1, 2: pulled from a remote.
  origin: fc.constantFrom(0, 0, 1, 2),
  // Made here by an import rather than a submit.
  imported: fc.boolean(),
});
const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({ kind: fc.constant('insert'), scans: fc.array(scanShape, { minLength: 1, maxLength: 8 }) }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('update'),
      scan: fc.nat(),
      org: index(3),
      tool: index(TOOLS.length),
      status: index(STATUSES.length),
      violations: fc.constantFrom(0, 2),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('delete-scan'), scan: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('delete-org'), org: index(2) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('delete-user'), user: fc.integer({ min: 1, max: 2 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('delete-remote'), remote: index(REMOTES.length) }) },
) as fc.Arbitrary<Step>;

interface World {
  ctx: TestContext;
  users: TestUser[];
  /** Two organizations (either may be deleted) and "none". */
  orgs: (string | null)[];
  /** The remotes' ids, as REMOTES names them. */
  remotes: string[];
  nextScan: number;
}

async function setUp(): Promise<World> {
  const ctx = await createTestContext();
  const world = await createRoleWorld(ctx);
  const remotes = [
    (await insertRemote(ctx.db, { id: 'rmt_team', name: REMOTES[0], user_id: world.users[0]!.id })).id,
    (await insertRemote(ctx.db, { id: 'rmt_lab', name: REMOTES[1], user_id: world.users[2]!.id })).id,
  ];
  return { ctx, ...world, remotes, nextScan: 1 };
}

async function scanIds(world: World): Promise<string[]> {
  const rows = await world.ctx.db.selectFrom('scans').select('id').orderBy('id').execute();
  return rows.map((row) => row.id);
}

async function apply(world: World, next: Step): Promise<void> {
  const { ctx, users, orgs } = world;
  const alive = new Set((await ctx.db.selectFrom('users').select('id').execute()).map((row) => row.id));
  const liveOrgs = new Set((await ctx.db.selectFrom('organizations').select('id').execute()).map((row) => row.id));
  const liveRemotes = new Set((await ctx.db.selectFrom('remotes').select('id').execute()).map((row) => row.id));
  const orgOf = (n: number): string | null => {
    const org = orgs[n] ?? null;
    return org !== null && liveOrgs.has(org) ? org : null;
  };
  switch (next.kind) {
    case 'insert': {
      const fixtures = next.scans
        .filter((shape) => alive.has(users[shape.user]!.id))
        .map((shape) => ({
          id: fixtureScanId(world.nextScan++),
          // 5 h 13 min apart: scans spread over days and at minutes that vary, for the ranges
          // checked below.
          created_at: ORIGIN + world.nextScan * (5 * HOUR + 13 * MINUTE),
          submitted_by: users[shape.user]!.id,
          tool: TOOLS[shape.tool],
          status: STATUSES[shape.status],
          organization_id: orgOf(shape.org),
          violation_count: shape.violations,
          imported: shape.imported,
          ...(shape.origin === 0
            ? {}
            : {
                origin: {
                  remote_id: liveRemotes.has(world.remotes[shape.origin - 1]!)
                    ? world.remotes[shape.origin - 1]!
                    : null,
                  id: `remote_${world.nextScan}`,
                },
              }),
        }));
      if (fixtures.length > 0) await insertScans(ctx.db, fixtures);
      return;
    }
    case 'update': {
      const ids = await scanIds(world);
      if (ids.length === 0) return;
      await ctx.db
        .updateTable('scans')
        .set({
          organization_id: orgOf(next.org),
          tool: TOOLS[next.tool],
          status: STATUSES[next.status],
          violation_count: next.violations,
          // Moves the scan to another hour, and often another day.
          created_at: ORIGIN + (next.scan % 60) * 97 * MINUTE,
        })
        .where('id', '=', ids[next.scan % ids.length]!)
        .execute();
      return;
    }
    case 'delete-scan': {
      const ids = await scanIds(world);
      if (ids.length > 0)
        await ctx.db
          .deleteFrom('scans')
          .where('id', '=', ids[next.scan % ids.length]!)
          .execute();
      return;
    }
    case 'delete-org': {
      const org = orgOf(next.org);
      if (org === null) return;
      const response = await ctx.request({ method: 'DELETE', url: `/v1/organizations/${org}` });
      expect(response.statusCode, response.body).toBe(204);
      return;
    }
    case 'delete-user':
      await deleteUser(ctx.db, users[next.user]!.id);
      return;
    case 'delete-remote':
      // What was pulled stays, as local data: the store sets its origin_remote_id null.
      await ctx.db.deleteFrom('remotes').where('id', '=', world.remotes[next.remote]!).execute();
      return;
  }
}

/** The rollup as the triggers left it, and as a recount of the scans says it must be. */
async function rollupAndRecount(world: World) {
  const { db } = world.ctx;
  const rollup = await db
    .selectFrom('scan_counts')
    .selectAll()
    .orderBy('organization_key')
    .orderBy('submitted_by')
    .orderBy('tool')
    .orderBy('status')
    .orderBy('with_violations')
    .orderBy('origin_key')
    .execute();
  const recount = await sql<(typeof rollup)[number]>`
    SELECT coalesce(organization_id, '') AS organization_key, submitted_by, tool, status,
      CASE WHEN violation_count > 0 THEN 1 ELSE 0 END AS with_violations,
      coalesce(origin_remote_id, '') AS origin_key, count(*) AS scans
    FROM scans GROUP BY 1, 2, 3, 4, 5, 6 ORDER BY 1, 2, 3, 4, 5, 6`.execute(db);
  return { rollup, recount: recount.rows };
}

/** The flagged scans' rollups as the triggers left them, and as a recount of the scans says they must be. */
async function flaggedAndRecount(world: World) {
  const { db } = world.ctx;
  const KEYS = {
    flagged_scan_days: ['submitted_by', 'organization_key', 'day', 'status', 'with_violations', 'tool', 'origin_key'],
    flagged_organization_days: ['organization_key', 'day', 'status', 'with_violations', 'tool', 'origin_key'],
    flagged_scan_hours: ['hour', 'tool', 'organization_key', 'submitted_by', 'origin_key', 'status', 'with_violations'],
  } as const;
  const expression = {
    submitted_by: sql`submitted_by`,
    organization_key: sql`coalesce(organization_id, '')`,
    day: sql`created_at - created_at % ${DAY}`,
    hour: sql`created_at - created_at % ${HOUR}`,
    status: sql`status`,
    with_violations: sql`CASE WHEN violation_count > 0 THEN 1 ELSE 0 END`,
    tool: sql`tool`,
    origin_key: sql`coalesce(origin_remote_id, '')`,
  };
  const compare = async (table: keyof typeof KEYS) => {
    const keys = KEYS[table];
    const order = sql.raw(keys.map((_, i) => i + 1).join(', '));
    const rollup = await sql`SELECT ${sql.join(keys.map((key) => sql.ref(key)))}, scans FROM ${sql.table(table)}
      ORDER BY ${order}`.execute(db);
    const recount = await sql`
      SELECT ${sql.join(keys.map((key) => sql`${expression[key]} AS ${sql.ref(key)}`))}, count(*) AS scans FROM scans
      WHERE status <> 'completed' OR violation_count > 0 GROUP BY ${order} ORDER BY ${order}`.execute(db);
    return { rollup: rollup.rows, recount: recount.rows };
  };
  return {
    days: await compare('flagged_scan_days'),
    organizationDays: await compare('flagged_organization_days'),
    hours: await compare('flagged_scan_hours'),
  };
}

/** scan_hours as the triggers left it, and as a recount of the scans says it must be. */
async function hoursAndRecount(world: World) {
  const { db } = world.ctx;
  const rollup = await sql`
    SELECT hour, tool, organization_key, submitted_by, origin_key, action, scans FROM scan_hours
    ORDER BY 1, 2, 3, 4, 5, 6`.execute(db);
  const recount = await sql`
    SELECT created_at - created_at % ${HOUR} AS hour, tool, coalesce(organization_id, '') AS organization_key,
      submitted_by, coalesce(origin_remote_id, '') AS origin_key, action, count(*) AS scans
    FROM scans GROUP BY 1, 2, 3, 4, 5, 6 ORDER BY 1, 2, 3, 4, 5, 6`.execute(db);
  return { rollup: rollup.rows, recount: recount.rows };
}

const FILTERS = [
  '',
  ...TOOLS.map((tool) => `&tool=${tool}`),
  ...STATUSES.map((status) => `&status=${status}`),
  '&has_violations=true',
  '&has_violations=false',
  '&tool=cursor&status=completed&has_violations=true',
  '&origin=local',
  // Imported and pulled scans are counted over their own index, submitted ones as all less those.
  '&source=submitted',
  '&source=imported',
  '&source=pulled',
  '&source=submitted&tool=cursor&has_violations=true',
  '&source=imported&status=failed',
  // With a range over the rollup's days, and a name no remote has: origins.routes.test.ts.
  ...REMOTES.map((remote) => `&origin=${remote}`),
];

async function expectTotals(world: World): Promise<void> {
  const { ctx, users } = world;
  const scans = await ctx.db.selectFrom('scans').selectAll().execute();
  const managed = await ctx.db.selectFrom('memberships').where('role', 'in', ['owner', 'admin']).selectAll().execute();
  const orgs = (await ctx.db.selectFrom('organizations').select('id').execute()).map((row) => row.id);
  const alive = new Set((await ctx.db.selectFrom('users').select('id').execute()).map((row) => row.id));
  const remoteIds = new Map(
    (await ctx.db.selectFrom('remotes').select(['id', 'name']).execute()).map((r) => [r.name, r.id]),
  );
  const originOf = (scan: (typeof scans)[number]): string =>
    scan.origin_remote_id === null ? 'local' : `remote:${scan.origin_remote_id}`;
  const wanted = (origin: string): string =>
    origin === 'local' ? 'local' : remoteIds.has(origin) ? `remote:${remoteIds.get(origin)}` : 'none';
  for (const user of users.filter((u) => alive.has(u.id))) {
    const mine = new Set(managed.filter((m) => m.user_id === user.id).map((m) => m.organization_id));
    const visible = scans.filter(
      (scan) => scan.submitted_by === user.id || (scan.organization_id !== null && mine.has(scan.organization_id)),
    );
    for (const filter of [...FILTERS, ...orgs.map((org) => `&organization_id=${org}`)]) {
      const params = new URLSearchParams(filter);
      const matches = visible.filter(
        (scan) =>
          (!params.has('tool') || scan.tool === params.get('tool')) &&
          (!params.has('status') || scan.status === params.get('status')) &&
          (!params.has('organization_id') || scan.organization_id === params.get('organization_id')) &&
          (!params.has('has_violations') || scan.violation_count > 0 === (params.get('has_violations') === 'true')) &&
          (!params.has('origin') || originOf(scan) === wanted(params.get('origin')!)) &&
          (!params.has('source') || scan.source === params.get('source')),
      );
      for (const range of [{}, ...RANGES]) {
        const expected = matches.filter(
          (scan) =>
            (range.since === undefined || scan.created_at >= range.since) &&
            (range.until === undefined || scan.created_at < range.until),
        ).length;
        const url = `/v1/scans?limit=1${filter}${rangeQuery(range)}`;
        const response = await ctx.request({ method: 'GET', url, as: user });
        expect(response.statusCode, response.body).toBe(200);
        expect((response.json() as ScanList).total, `${user.name} ${url}`).toBe(expected);
      }
    }
  }
}

/** Scans stored before a migration's fill runs again (one pulled, one made here). */
const STORED_BEFORE = [
  { org: 0, user: 1, tool: 0, status: 2, violations: 1, origin: 1 },
  { org: 2, user: 2, tool: 1, status: 3, violations: 0, origin: 0 },
] as const;

describe('scan totals (the scan_counts rollup)', () => {
  let world: World | undefined;
  afterEach(async () => {
    await world?.ctx.close();
    world = undefined;
  });

  it('stays equal to a recount and to the visibility rule through inserts, updates and cascading deletes', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 12 }), async (steps) => {
        await world?.ctx.close();
        world = await setUp();
        for (const next of steps) await apply(world, next);
        const { rollup, recount } = await rollupAndRecount(world);
        expect(rollup).toEqual(recount);
        const hours = await hoursAndRecount(world);
        expect(hours.rollup).toEqual(hours.recount);
        for (const { rollup, recount } of Object.values(await flaggedAndRecount(world))) {
          expect(rollup).toEqual(recount);
        }
        await expectTotals(world);
      }),
      { numRuns: 15 },
    );
  }, 120_000);

  it('is filled from the scans already stored when the migration runs', async () => {
    world = await setUp();
    await apply(world, {
      kind: 'insert',
      scans: [...STORED_BEFORE],
    });
    const { db } = world.ctx;
    await db.deleteFrom('scan_counts').execute();
    // Re-run the migrations' fills on the emptied rollup, as an upgraded store would: the one that
    // keyed it by origin, back to the one before and forward again.
    const { up, down } = await import('../../../src/main/db/migrations/2026_11_27_130000_split_rollups_by_origin');
    await down(db);
    await up(db);
    const { rollup, recount } = await rollupAndRecount(world);
    expect(rollup).toHaveLength(2);
    expect(rollup.map((row) => row.origin_key).sort()).toEqual(['', 'rmt_team']);
    expect(rollup).toEqual(recount);
  });

  it('counts the partial hours at a range’s ends', async () => {
    world = await setUp();
    const scans = Array.from({ length: 18 }, (_, n) => ({
      org: n % 3,
      user: n % 3,
      tool: n % TOOLS.length,
      status: n % STATUSES.length,
      violations: 0,
      origin: 0,
    }));
    await apply(world, { kind: 'insert', scans });
    await expectTotals(world);
  });

  it('fills scan_hours from the scans already stored when its migration runs', async () => {
    world = await setUp();
    await apply(world, {
      kind: 'insert',
      scans: [...STORED_BEFORE, { org: 2, user: 2, tool: 1, status: 0, violations: 0, origin: 0 }],
    });
    // Back through the migrations that made it and forward again, each filling it from the scans.
    const counting = await import('../../../src/main/db/migrations/2026_11_30_090000_create_scan_hours');
    const measuring = await import('../../../src/main/db/migrations/2026_12_03_090000_measure_scan_hours');
    await measuring.down(world.ctx.db);
    await counting.down(world.ctx.db);
    await counting.up(world.ctx.db);
    await measuring.up(world.ctx.db);
    const { rollup, recount } = await hoursAndRecount(world);
    expect(rollup).toHaveLength(3);
    expect(rollup).toEqual(recount);
  });

  it("fills the flagged scans' rollups from the scans already stored when their migration runs", async () => {
    world = await setUp();
    // Flagged: completed with a violation, failed, completed with two; clean: completed with none.
    await apply(world, {
      kind: 'insert',
      scans: [
        ...STORED_BEFORE,
        { org: 2, user: 2, tool: 1, status: 2, violations: 2, origin: 0 },
        { org: 1, user: 1, tool: 0, status: 2, violations: 0, origin: 0 },
      ],
    });
    const { down, up } = await import('../../../src/main/db/migrations/2026_12_06_090000_count_flagged_scans');
    await down(world.ctx.db);
    await up(world.ctx.db);
    const { days, organizationDays, hours } = await flaggedAndRecount(world);
    expect(days.rollup).toHaveLength(3);
    for (const { rollup, recount } of [days, organizationDays, hours]) expect(rollup).toEqual(recount);
    await expectTotals(world);
  });
});
