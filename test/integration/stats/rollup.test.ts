import fc from 'fast-check';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import type { TokenStats, ViolationStats } from '../../../src/shared/api/stats';
import type { Severity } from '../../../src/shared/api/scans';
import { splitByDays } from '../../../src/main/scans/day-split';
import { deleteUser } from '../../../src/main/users/users.repository';
import { createRoleWorld, fixtureScanId, insertScans } from '../../helpers/scan-fixtures';
import { insertRemote } from '../../helpers/sync-fixtures';
import { createTestContext, type TestContext, type TestUser } from '../../helpers/test-app';

// The overview's stats read whole UTC days from the day rollups (scan_days, organization_days,
// violation_days) and partial days from the scans. These runs write scans and violations through
// every path that changes them (inserts, updates, direct and cascading deletes) and compare the
// rollups with a recount, and the stats endpoints, for ranges aligned to days or not, with what
// the raw rows say.
// Some scans are pulled from one of two remotes, which may be removed (their scans become local):
// the `origin` filter, "this laptop" or one remote apart, reads the same rollups.

const DAY = 86_400_000;
const HOUR = 3_600_000;
/** Five days of scans, starting at a UTC midnight. */
const ORIGIN = Date.UTC(2026, 10, 1);
const SPAN = 5 * DAY;
const TOOLS = ['claude-code', 'cursor'] as const;
const ACTIONS = ['edit', 'chat', 'run'] as const;
const SEVERITIES: readonly Severity[] = ['low', 'medium', 'high', 'critical'];
const RULES = ['tool.blocked', 'tokens.scan_limit', 'action.blocked'] as const;
const REMOTES = ['team', 'lab'] as const;

const index = (n: number) => fc.nat({ max: n - 1 });
const scanShape = fc.record({
  at: fc.nat({ max: SPAN - 1 }),
  org: index(3),
  user: index(3),
  tool: index(TOOLS.length),
  action: index(ACTIONS.length),
  tokens: fc.nat({ max: 10_000 }),
  violations: fc.array(fc.record({ severity: index(SEVERITIES.length), rule: index(RULES.length) }), { maxLength: 3 }),
  // 0: made here; 1, 2: pulled from a remote.
  origin: fc.constantFrom(0, 0, 1, 2),
});

type ValueOf<A> = A extends fc.Arbitrary<infer T> ? T : never;

type Step =
  | { kind: 'insert'; scans: ValueOf<typeof scanShape>[] }
  | { kind: 'update-scan'; scan: number; at: number; org: number; tool: number; action: number; tokens: number }
  | { kind: 'update-violation'; violation: number; severity: number; rule: number }
  | { kind: 'delete-scan'; scan: number }
  | { kind: 'delete-violation'; violation: number }
  | { kind: 'delete-org'; org: number }
  | { kind: 'delete-user'; user: number }
  | { kind: 'delete-remote'; remote: number };

const step = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({ kind: fc.constant('insert'), scans: fc.array(scanShape, { minLength: 1, maxLength: 8 }) }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('update-scan'),
      scan: fc.nat(),
      at: fc.nat({ max: SPAN - 1 }),
      org: index(3),
      tool: index(TOOLS.length),
      action: index(ACTIONS.length),
      tokens: fc.nat({ max: 10_000 }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('update-violation'),
      violation: fc.nat(),
      severity: index(SEVERITIES.length),
      rule: index(RULES.length),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('delete-scan'), scan: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('delete-violation'), violation: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('delete-org'), org: index(2) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('delete-user'), user: fc.integer({ min: 1, max: 2 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('delete-remote'), remote: index(REMOTES.length) }) },
) as fc.Arbitrary<Step>;

/** A range end: open, a UTC midnight or hour, or any instant, over the data's days and a bit beyond. */
const end = fc.oneof(
  fc.constant(undefined),
  fc.integer({ min: -1, max: 6 }).map((d) => ORIGIN + d * DAY),
  fc.integer({ min: -24, max: 6 * 24 }).map((h) => ORIGIN + h * HOUR),
  fc.integer({ min: -DAY, max: SPAN + DAY }).map((ms) => ORIGIN + ms),
);
const statsQuery = fc.record({
  since: end,
  until: end,
  bucket: fc.constantFrom('day', 'hour'),
  group_by: fc.constantFrom(undefined, 'tool', 'action'),
  tool: fc.constantFrom(undefined, ...TOOLS),
  org: fc.constantFrom(undefined, 0, 1),
  origin: fc.constantFrom(undefined, 'local', ...REMOTES, 'nowhere'),
});

interface World {
  ctx: TestContext;
  users: TestUser[];
  orgs: (string | null)[];
  /** The remotes' ids, as REMOTES names them. */
  remotes: string[];
  nextId: number;
}

async function setUp(): Promise<World> {
  const ctx = await createTestContext();
  const world = await createRoleWorld(ctx);
  const remotes = [
    (await insertRemote(ctx.db, { id: 'rmt_team', name: REMOTES[0], user_id: world.users[0]!.id })).id,
    (await insertRemote(ctx.db, { id: 'rmt_lab', name: REMOTES[1], user_id: world.users[2]!.id })).id,
  ];
  return { ctx, ...world, remotes, nextId: 1 };
}

async function ids(world: World, table: 'scans' | 'violations'): Promise<string[]> {
  const rows = await world.ctx.db.selectFrom(table).select('id').orderBy('id').execute();
  return rows.map((row) => row.id);
}

async function apply(world: World, next: Step): Promise<void> {
  const { ctx, users, orgs } = world;
  const { db } = ctx;
  const alive = new Set((await db.selectFrom('users').select('id').execute()).map((row) => row.id));
  const liveOrgs = new Set((await db.selectFrom('organizations').select('id').execute()).map((row) => row.id));
  const orgOf = (n: number): string | null => (orgs[n] && liveOrgs.has(orgs[n]) ? orgs[n] : null);
  const liveRemotes = new Set((await db.selectFrom('remotes').select('id').execute()).map((row) => row.id));
  const remoteOf = (n: number): string | null => (liveRemotes.has(world.remotes[n]!) ? world.remotes[n]! : null);
  const pick = async (table: 'scans' | 'violations', n: number): Promise<string | undefined> => {
    const all = await ids(world, table);
    return all.length === 0 ? undefined : all[n % all.length];
  };
  switch (next.kind) {
    case 'insert': {
      const shapes = next.scans.filter((shape) => alive.has(users[shape.user]!.id));
      const fixtures = shapes.map((shape) => ({
        id: fixtureScanId(world.nextId++),
        created_at: ORIGIN + shape.at,
        submitted_by: users[shape.user]!.id,
        tool: TOOLS[shape.tool],
        action: ACTIONS[shape.action],
        tokens: shape.tokens,
        organization_id: orgOf(shape.org),
        violation_count: shape.violations.length,
        ...(shape.origin === 0
          ? {}
          : { origin: { remote_id: remoteOf(shape.origin - 1), id: `remote_${world.nextId}` } }),
      }));
      if (fixtures.length === 0) return;
      await insertScans(db, fixtures);
      const violations = shapes.flatMap((shape, i) =>
        shape.violations.map((v, seq) => ({
          id: `violation_${world.nextId++}`,
          scan_id: fixtures[i]!.id,
          seq,
          rule: RULES[v.rule]!,
          severity: SEVERITIES[v.severity]!,
          message: 'm',
          timeline_index: null,
        })),
      );
      if (violations.length > 0) await db.insertInto('violations').values(violations).execute();
      return;
    }
    case 'update-scan': {
      const id = await pick('scans', next.scan);
      if (!id) return;
      await db
        .updateTable('scans')
        .set({
          created_at: ORIGIN + next.at,
          organization_id: orgOf(next.org),
          tool: TOOLS[next.tool],
          action: ACTIONS[next.action],
          tokens: next.tokens,
        })
        .where('id', '=', id)
        .execute();
      return;
    }
    case 'update-violation': {
      const id = await pick('violations', next.violation);
      if (id) {
        await db
          .updateTable('violations')
          .set({ severity: SEVERITIES[next.severity]!, rule: RULES[next.rule]! })
          .where('id', '=', id)
          .execute();
      }
      return;
    }
    case 'delete-scan': {
      const id = await pick('scans', next.scan);
      if (id) await db.deleteFrom('scans').where('id', '=', id).execute();
      return;
    }
    case 'delete-violation': {
      const id = await pick('violations', next.violation);
      if (id) await db.deleteFrom('violations').where('id', '=', id).execute();
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
      await deleteUser(db, users[next.user]!.id);
      return;
    case 'delete-remote':
      // What was pulled stays, as local data: the store sets its origin_remote_id null.
      await db.deleteFrom('remotes').where('id', '=', world.remotes[next.remote]!).execute();
      return;
  }
}

async function expectRollupsMatchRecount(world: World): Promise<void> {
  const { db } = world.ctx;
  const scanDays = await sql`
    SELECT day, organization_key, submitted_by, tool, action, origin_key, scans, tokens, violations FROM scan_days
    ORDER BY 1, 2, 3, 4, 5, 6`.execute(db);
  const scanRecount = await sql`
    SELECT created_at - created_at % ${DAY} AS day, coalesce(organization_id, '') AS organization_key,
      submitted_by, tool, action, coalesce(origin_remote_id, '') AS origin_key, count(*) AS scans,
      sum(tokens) AS tokens, sum(violation_count) AS violations
    FROM scans GROUP BY 1, 2, 3, 4, 5, 6 ORDER BY 1, 2, 3, 4, 5, 6`.execute(db);
  expect(scanDays.rows).toEqual(scanRecount.rows);
  const organizationDays = await sql`
    SELECT day, organization_key, tool, action, origin_key, scans, tokens, violations FROM organization_days
    ORDER BY 1, 2, 3, 4, 5`.execute(db);
  const organizationRecount = await sql`
    SELECT created_at - created_at % ${DAY} AS day, coalesce(organization_id, '') AS organization_key,
      tool, action, coalesce(origin_remote_id, '') AS origin_key, count(*) AS scans,
      sum(tokens) AS tokens, sum(violation_count) AS violations
    FROM scans GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2, 3, 4, 5`.execute(db);
  expect(organizationDays.rows).toEqual(organizationRecount.rows);
  const scanHours = await sql`
    SELECT hour, tool, organization_key, submitted_by, origin_key, action, scans, tokens, violations FROM scan_hours
    ORDER BY 1, 2, 3, 4, 5, 6`.execute(db);
  const hourRecount = await sql`
    SELECT created_at - created_at % ${HOUR} AS hour, tool, coalesce(organization_id, '') AS organization_key,
      submitted_by, coalesce(origin_remote_id, '') AS origin_key, action, count(*) AS scans,
      sum(tokens) AS tokens, sum(violation_count) AS violations
    FROM scans GROUP BY 1, 2, 3, 4, 5, 6 ORDER BY 1, 2, 3, 4, 5, 6`.execute(db);
  expect(scanHours.rows).toEqual(hourRecount.rows);
  const organizationHours = await sql`
    SELECT hour, tool, organization_key, action, origin_key, scans, tokens, violations FROM organization_hours
    ORDER BY 1, 2, 3, 4, 5`.execute(db);
  const organizationHourRecount = await sql`
    SELECT created_at - created_at % ${HOUR} AS hour, tool, coalesce(organization_id, '') AS organization_key,
      action, coalesce(origin_remote_id, '') AS origin_key, count(*) AS scans,
      sum(tokens) AS tokens, sum(violation_count) AS violations
    FROM scans GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2, 3, 4, 5`.execute(db);
  expect(organizationHours.rows).toEqual(organizationHourRecount.rows);
  const violationDays = await sql`
    SELECT day, organization_key, submitted_by, severity, rule, origin_key, violations FROM violation_days
    ORDER BY 1, 2, 3, 4, 5, 6`.execute(db);
  const violationRecount = await sql`
    SELECT s.created_at - s.created_at % ${DAY} AS day, coalesce(s.organization_id, '') AS organization_key,
      s.submitted_by, v.severity, v.rule, coalesce(s.origin_remote_id, '') AS origin_key, count(*) AS violations
    FROM violations v JOIN scans s ON s.id = v.scan_id GROUP BY 1, 2, 3, 4, 5, 6 ORDER BY 1, 2, 3, 4, 5, 6`.execute(db);
  expect(violationDays.rows).toEqual(violationRecount.rows);
}

type Query = ValueOf<typeof statsQuery>;

async function expectStats(world: World, user: TestUser, query: Query): Promise<void> {
  const { db } = world.ctx;
  const org = query.org === undefined ? undefined : (world.orgs[query.org] ?? undefined);
  const managed = new Set(
    (
      await db
        .selectFrom('memberships')
        .where('user_id', '=', user.id)
        .where('role', 'in', ['owner', 'admin'])
        .select('organization_id')
        .execute()
    ).map((row) => row.organization_id),
  );
  const remoteIds = new Map(
    (await db.selectFrom('remotes').select(['id', 'name']).execute()).map((r) => [r.name, r.id]),
  );
  const scans = (await db.selectFrom('scans').selectAll().execute()).filter(
    (scan) =>
      (scan.submitted_by === user.id || (scan.organization_id !== null && managed.has(scan.organization_id))) &&
      (query.since === undefined || scan.created_at >= query.since) &&
      (query.until === undefined || scan.created_at < query.until) &&
      (org === undefined || scan.organization_id === org) &&
      (query.origin === undefined ||
        (query.origin === 'local'
          ? scan.origin_remote_id === null
          : scan.origin_remote_id === remoteIds.get(query.origin))),
  );
  const params = new URLSearchParams({
    ...(query.origin === undefined ? {} : { origin: query.origin }),
    ...(query.since === undefined ? {} : { since: new Date(query.since).toISOString() }),
    ...(query.until === undefined ? {} : { until: new Date(query.until).toISOString() }),
    ...(org === undefined ? {} : { organization_id: org }),
  });
  const where = `${user.name} ${params.toString()}`;

  const violations = await db
    .selectFrom('violations')
    .where('scan_id', 'in', scans.map((scan) => scan.id).concat(''))
    .select(['severity', 'rule'])
    .execute();
  const expectedViolations: ViolationStats = { by_severity: { low: 0, medium: 0, high: 0, critical: 0 }, by_rule: {} };
  for (const v of violations) {
    expectedViolations.by_severity[v.severity] += 1;
    expectedViolations.by_rule[v.rule] = (expectedViolations.by_rule[v.rule] ?? 0) + 1;
  }
  const gotViolations = await world.ctx.request({ method: 'GET', url: `/v1/stats/violations?${params}`, as: user });
  expect(gotViolations.statusCode, gotViolations.body).toBe(200);
  expect(gotViolations.json(), where).toEqual(expectedViolations);

  const width = query.bucket === 'day' ? DAY : HOUR;
  const buckets = new Map<number, TokenStats['buckets'][number]>();
  for (const scan of scans.filter((s) => query.tool === undefined || s.tool === query.tool)) {
    const start = scan.created_at - (scan.created_at % width);
    let bucket = buckets.get(start);
    if (!bucket) {
      bucket = {
        start: new Date(start).toISOString(),
        tokens: 0,
        scans: 0,
        violations: 0,
        ...(query.group_by ? { groups: {} } : {}),
      };
      buckets.set(start, bucket);
    }
    bucket.tokens += scan.tokens;
    bucket.scans += 1;
    bucket.violations += scan.violation_count;
    if (bucket.groups && query.group_by) {
      const group = (bucket.groups[scan[query.group_by]] ??= { tokens: 0, scans: 0 });
      group.tokens += scan.tokens;
      group.scans += 1;
    }
  }
  const expectedTokens: TokenStats = {
    bucket: query.bucket,
    buckets: [...buckets.entries()].sort(([a], [b]) => a - b).map(([, bucket]) => bucket),
  };
  params.set('bucket', query.bucket);
  if (query.group_by) params.set('group_by', query.group_by);
  if (query.tool) params.set('tool', query.tool);
  const gotTokens = await world.ctx.request({ method: 'GET', url: `/v1/stats/tokens?${params}`, as: user });
  expect(gotTokens.statusCode, gotTokens.body).toBe(200);
  expect(gotTokens.json(), `${where} ${params.toString()}`).toEqual(expectedTokens);
}

describe('stats over the day rollups', () => {
  let world: World | undefined;
  afterEach(async () => {
    await world?.ctx.close();
    world = undefined;
  });

  it('splits a range into whole days and the partial days at its ends', () => {
    const at = (days: number, hours = 0) => ORIGIN + days * DAY + hours * HOUR;
    expect(splitByDays({})).toEqual({ days: {}, edges: [] });
    expect(splitByDays({ since: at(1), until: at(3) })).toEqual({ days: { since: at(1), until: at(3) }, edges: [] });
    expect(splitByDays({ since: at(1, 5), until: at(3, 2) })).toEqual({
      days: { since: at(2), until: at(3) },
      edges: [
        { since: at(1, 5), until: at(2) },
        { since: at(3), until: at(3, 2) },
      ],
    });
    expect(splitByDays({ since: at(1, 5) })).toEqual({
      days: { since: at(2) },
      edges: [{ since: at(1, 5), until: at(2) }],
    });
    expect(splitByDays({ since: at(1, 5), until: at(1, 9) })).toEqual({
      days: null,
      edges: [{ since: at(1, 5), until: at(1, 9) }],
    });
    expect(splitByDays({ since: at(1, 5), until: at(2, 1) })).toEqual({
      days: null,
      edges: [{ since: at(1, 5), until: at(2, 1) }],
    });
  });

  it('reads a partial day as a whole one only while the rest of its day holds no scan', async () => {
    world = await setUp();
    const scan = (hours: number) => ({
      at: DAY + hours * HOUR,
      org: 0,
      user: 0,
      tool: 0,
      action: 0,
      tokens: 100,
      violations: [{ severity: 2, rule: 0 }],
      origin: 0 as const,
    });
    // Until noon of the second day: its rest, noon to midnight, is empty, then holds a scan.
    const query: Query = {
      since: ORIGIN,
      until: ORIGIN + DAY + 12 * HOUR,
      bucket: 'day',
      group_by: 'tool',
      tool: undefined,
      org: undefined,
      origin: undefined,
    };
    await apply(world, { kind: 'insert', scans: [scan(0), scan(5)] });
    for (const user of world.users) await expectStats(world, user, query);
    await apply(world, { kind: 'insert', scans: [scan(20)] });
    for (const user of world.users) await expectStats(world, user, query);
  });

  it('sums a group of a day bucket over the whole hours and the minutes of its partial day', async () => {
    world = await setUp();
    const scan = (minutes: number, tokens: number) => ({
      at: DAY + minutes * 60_000,
      org: 0,
      user: 0,
      tool: 0,
      action: 0,
      tokens,
      violations: [],
      origin: 0 as const,
    });
    // From 10:30 of the second day: 10:45 is in the minutes before 11:00, 14:00 in a whole hour;
    // 05:00, before the range, keeps the day from being read whole.
    await apply(world, { kind: 'insert', scans: [scan(5 * 60, 1), scan(10 * 60 + 45, 100), scan(14 * 60, 20)] });
    const query: Query = {
      since: ORIGIN + DAY + 10.5 * HOUR,
      until: undefined,
      bucket: 'day',
      group_by: 'tool',
      tool: undefined,
      org: undefined,
      origin: undefined,
    };
    for (const user of world.users) await expectStats(world, user, query);
  });

  // Two submitters under one key, and a scan of another day or hour, organization and origin.
  it.each([
    {
      table: 'organization_days',
      migration: () => import('../../../src/main/db/migrations/2026_12_01_090000_create_organization_days'),
      at: [HOUR, 2 * HOUR, DAY + HOUR],
    },
    {
      table: 'organization_hours',
      migration: () => import('../../../src/main/db/migrations/2026_12_07_090000_create_organization_hours'),
      at: [HOUR, HOUR + 5, 3 * HOUR],
    },
  ] as const)(
    'fills $table from the rollups already stored when its migration runs',
    async ({ table, migration, at }) => {
      world = await setUp();
      const scan = (user: number, org: number, when: number) => ({
        at: when,
        org,
        user,
        tool: 0,
        action: 1,
        tokens: 1000 + when,
        violations: [{ severity: 1, rule: 2 }],
        origin: 0 as const,
      });
      await apply(world, {
        kind: 'insert',
        scans: [scan(0, 0, at[0]), scan(1, 0, at[1]), scan(2, 2, at[2]), { ...scan(1, 1, at[0]), origin: 1 }],
      });
      const { down, up } = await migration();
      await down(world.ctx.db);
      await up(world.ctx.db);
      expect(await world.ctx.db.selectFrom(table).select('scans').execute()).toHaveLength(3);
      await expectRollupsMatchRecount(world);
      // The triggers made again keep it: one more scan under the first key.
      await apply(world, { kind: 'insert', scans: [scan(2, 0, at[0] + 9)] });
      await expectRollupsMatchRecount(world);
    },
  );

  it('fills scan_hours with its measures from the scans when its migration runs', async () => {
    world = await setUp();
    const scan = (user: number, at: number, action: number) => ({
      at,
      org: 0,
      user,
      tool: 0,
      action,
      tokens: 1000 + at,
      violations: [{ severity: 1, rule: 2 }],
      origin: 0 as const,
    });
    // Two actions in one hour, two submitters in another.
    await apply(world, {
      kind: 'insert',
      scans: [scan(0, HOUR, 0), scan(0, HOUR + 1, 1), scan(1, 2 * HOUR, 0), scan(2, 2 * HOUR, 0)],
    });
    const { down, up } = await import('../../../src/main/db/migrations/2026_12_03_090000_measure_scan_hours');
    await down(world.ctx.db);
    await up(world.ctx.db);
    expect(await world.ctx.db.selectFrom('scan_hours').select('scans').execute()).toHaveLength(4);
    await expectRollupsMatchRecount(world);
    // The triggers made again keep it: one more scan under the first key.
    await apply(world, { kind: 'insert', scans: [scan(0, HOUR + 2, 0)] });
    await expectRollupsMatchRecount(world);
  });

  it('answer as the raw rows do, through inserts, updates and direct and cascading deletes', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(step, { minLength: 1, maxLength: 10 }),
        fc.array(statsQuery, { minLength: 1, maxLength: 6 }),
        async (steps, queries) => {
          await world?.ctx.close();
          world = await setUp();
          for (const next of steps) await apply(world, next);
          await expectRollupsMatchRecount(world);
          const alive = new Set((await world.ctx.db.selectFrom('users').select('id').execute()).map((row) => row.id));
          for (const user of world.users.filter((u) => alive.has(u.id))) {
            for (const query of queries) await expectStats(world, user, query);
          }
        },
      ),
      { numRuns: 20 },
    );
  }, 180_000);
});
