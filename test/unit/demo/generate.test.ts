import { decodeTime, encodeTime } from 'ulid';
import { describe, expect, it } from 'vitest';
import { ORGANIZATIONS, TOOLS } from '../../../src/main/demo/catalog';
import { ScanGenerator, createWorld, type DemoScan, type DemoWorld } from '../../../src/main/demo/generate';
import { Random, WeightedPicker, seededUlid } from '../../../src/main/demo/random';
import { evaluatePolicy } from '../../../src/shared/policy/evaluate-policy';
import { worstSeverityRank } from '../../../src/shared/policy/severity';

const NOW = Date.parse('2026-11-21T12:00:00.000Z');
const DAY = 86_400_000;
const OWNER = 'usr_01OWNER0000000000000000000';

function generate(seed: number, count: number): { world: DemoWorld; scans: DemoScan[] } {
  const random = new Random(seed);
  const world = createWorld(random, OWNER, NOW);
  const generator = new ScanGenerator(world, random, count);
  const scans: DemoScan[] = [];
  for (let scan = generator.next(); scan; scan = generator.next()) scans.push(scan);
  return { world, scans };
}

describe('demo random', () => {
  it('is a deterministic stream per seed, different across seeds', () => {
    const draw = (seed: number): number[] => {
      const random = new Random(seed);
      return Array.from({ length: 20 }, () => random.uint32());
    };
    expect(draw(7)).toEqual(draw(7));
    expect(draw(7)).not.toEqual(draw(8));
    expect(draw(0)).not.toEqual(draw(1));
  });

  it('gives floats in [0, 1) and ints within their bounds', () => {
    const random = new Random(3);
    for (let i = 0; i < 10_000; i++) {
      const f = random.float();
      expect(f >= 0 && f < 1).toBe(true);
      const n = random.int(-2, 5);
      expect(Number.isInteger(n) && n >= -2 && n <= 5).toBe(true);
    }
  });

  it('picks by weight', () => {
    const random = new Random(11);
    const picker = new WeightedPicker([
      ['a', 1],
      ['b', 3],
      ['never', 0],
    ]);
    const counts = { a: 0, b: 0, never: 0 };
    for (let i = 0; i < 40_000; i++) counts[picker.pick(random) as keyof typeof counts] += 1;
    expect(counts.never).toBe(0);
    expect(counts.b / counts.a).toBeGreaterThan(2.7);
    expect(counts.b / counts.a).toBeLessThan(3.3);
  });

  it('makes ULIDs whose time part is the given time and that sort by it', () => {
    const random = new Random(1);
    const a = seededUlid(NOW, random);
    const b = seededUlid(NOW + 1, random);
    expect(a).toMatch(/^[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(a < b).toBe(true);
    expect(a.slice(0, 10)).toBe(encodeTime(NOW, 10));
    expect(decodeTime(b)).toBe(NOW + 1);
  });
});

describe('demo generation', () => {
  const first = generate(42, 3_000);

  it('gives the same world and scans for the same seed', () => {
    const again = generate(42, 3_000);
    expect(again.world).toEqual(first.world);
    expect(again.scans).toEqual(first.scans);
  });

  it('gives different data for another seed', () => {
    const other = generate(43, 3_000);
    expect(other.world.organizations.map((o) => o.id)).not.toEqual(first.world.organizations.map((o) => o.id));
    expect(other.scans.map((s) => s.tokens)).not.toEqual(first.scans.map((s) => s.tokens));
  });

  it('builds organizations where the owner owns everything and every role appears', () => {
    const { world } = first;
    expect(world.organizations.map((o) => o.name)).toEqual(ORGANIZATIONS.map((o) => o.name));
    const userIds = new Set(world.users.map((u) => u.id));
    for (const organization of world.organizations) {
      expect(organization.members).toContainEqual(expect.objectContaining({ user_id: OWNER, role: 'owner' }));
      expect(new Set(organization.members.map((m) => m.role))).toEqual(new Set(['owner', 'admin', 'member']));
      expect(new Set(organization.members.map((m) => m.user_id)).size).toBe(organization.members.length);
      const memberIds = new Set(organization.members.map((m) => m.user_id));
      for (const team of organization.teams) {
        expect(team.members.length).toBeGreaterThan(0);
        for (const member of team.members) expect(memberIds.has(member.user_id)).toBe(true);
      }
      for (const member of organization.members) {
        if (member.user_id !== OWNER) expect(userIds.has(member.user_id)).toBe(true);
      }
    }
  });

  it('keeps timelines, tokens, breakdowns and times within their rules', () => {
    const toolNames = new Set(TOOLS.map((t) => t.name));
    let entries = 0;
    for (const scan of first.scans) {
      expect(scan.id).toMatch(/^scan_[0-9A-HJKMNP-TV-Z]{26}$/);
      expect(toolNames.has(scan.tool)).toBe(true);
      expect(scan.timeline.length).toBeGreaterThanOrEqual(1);
      expect(scan.timeline.length).toBeLessThanOrEqual(200);
      expect(scan.created_at).toBeGreaterThanOrEqual(NOW - 90 * DAY);
      expect(scan.created_at).toBeLessThan(NOW);
      expect(scan.timeline[0]!.action).toBe(scan.action);
      let previous = scan.created_at;
      let sum = 0;
      for (const entry of scan.timeline) {
        expect(entry.timestamp).toBeGreaterThan(previous);
        expect(Number.isInteger(entry.tokens) && entry.tokens > 0).toBe(true);
        previous = entry.timestamp;
        sum += entry.tokens;
      }
      expect(scan.tokens).toBe(sum);
      const breakdown = JSON.parse(scan.token_breakdown) as { input: number; output: number; cached: number };
      expect(Object.keys(breakdown)).toEqual(['input', 'output', 'cached']);
      expect(breakdown.input + breakdown.output + breakdown.cached).toBe(scan.tokens);
      expect(Math.min(breakdown.input, breakdown.output, breakdown.cached)).toBeGreaterThanOrEqual(0);
      entries += scan.timeline.length;
    }
    const mean = entries / first.scans.length;
    expect(mean).toBeGreaterThan(6);
    expect(mean).toBeLessThan(15);
    const lengths = first.scans.map((s) => s.timeline.length).sort((a, b) => a - b);
    // Skewed: the median is well below the mean.
    expect(lengths[lengths.length >> 1]!).toBeLessThan(mean);
  });

  it('is in created_at order and spread over the window, busier on weekdays and in the day', () => {
    const times = first.scans.map((s) => s.created_at);
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(times[0]!).toBeLessThan(NOW - 80 * DAY);
    expect(times[times.length - 1]!).toBeGreaterThan(NOW - 2 * DAY);
    const weekend = first.scans.filter((s) => [0, 6].includes(new Date(s.created_at).getUTCDay())).length;
    expect(weekend / first.scans.length).toBeLessThan(0.15);
  });

  it('has mostly completed scans, some without organization, and a realistic share of violations', () => {
    const { scans } = first;
    const share = (predicate: (s: DemoScan) => boolean): number => scans.filter(predicate).length / scans.length;
    expect(share((s) => s.status === 'completed')).toBeGreaterThan(0.9);
    expect(share((s) => s.status === 'failed')).toBeGreaterThan(0);
    expect(share((s) => s.organization_id === null)).toBeGreaterThan(0.02);
    expect(share((s) => s.organization_id === null && s.submitted_by !== OWNER)).toBe(0);
    const violating = share((s) => s.violations.length > 0);
    expect(violating).toBeGreaterThan(0.05);
    expect(violating).toBeLessThan(0.4);
    expect(new Set(scans.flatMap((s) => s.violations.map((v) => v.rule)))).toEqual(
      new Set(['tool.blocked', 'tool.not_allowed', 'action.blocked', 'tokens.scan_limit', 'tokens.request_limit']),
    );
  });

  it('has exactly the violations the policy engine finds', () => {
    const policies = new Map(first.world.organizations.map((o) => [o.id, o.policy]));
    for (const scan of first.scans.filter((_, index) => index % 7 === 0)) {
      const policy = scan.organization_id === null ? undefined : policies.get(scan.organization_id);
      const expected =
        policy === undefined
          ? []
          : evaluatePolicy(policy, { tool: scan.tool, tokens: scan.tokens, timeline: scan.timeline });
      expect(scan.violations.map(({ id: _id, seq: _seq, ...finding }) => finding)).toEqual(expected);
      expect(scan.violations.map((v) => v.seq)).toEqual(expected.map((_, seq) => seq));
      for (const violation of scan.violations) expect(violation.id).toMatch(/^vio_[0-9A-HJKMNP-TV-Z]{26}$/);
      expect(scan.worst_severity).toBe(worstSeverityRank(expected.map((f) => f.severity)));
    }
  });
});
