import type { Plan, Role } from '../../shared/api/common';
import type { Policy } from '../../shared/api/policies';
import type { ScanStatus } from '../../shared/api/scans';
import { evaluatePolicy, type Finding } from '../../shared/policy/evaluate-policy';
import { worstSeverityRank } from '../../shared/policy/severity';
import { ID_PREFIX } from '../../shared/api/common';
import type { StoredTimelineEntry } from '../evidence/timeline/timeline-entry';
import {
  ACTION_TOKENS,
  DAYS,
  FAILED_SHARE,
  HOUR_WEIGHTS,
  KINDS,
  MAX_TIMELINE,
  ORGANIZATIONS,
  PEOPLE,
  PERSONAL,
  RECENT_MS,
  RECENT_PENDING_SHARE,
  RECENT_RUNNING_SHARE,
  TOOLS,
  WEEKEND_FACTOR,
  type KindSpec,
  type Spread,
  type ToolSpec,
} from './catalog';
import { WeightedPicker, seededUlid, type Random } from './random';
import { DAY_MS, HOUR_MS } from '../../shared/time';

/*
 * Everything here is a function of the PRNG, the owner's id and `now`: no clock, no Math.random,
 * no database. The same inputs give the same rows, which is what the tests and the
 * identical-databases property rely on.
 */

export interface DemoUser {
  id: string;
  name: string;
  created_at: string;
}

export interface DemoMember {
  user_id: string;
  role: Role;
  joined_at: string;
}

export interface DemoTeam {
  id: string;
  name: string;
  created_at: string;
  members: { user_id: string; added_at: string }[];
}

export interface DemoOrganization {
  id: string;
  name: string;
  plan: Plan;
  created_at: string;
  policy: Policy;
  members: DemoMember[];
  teams: DemoTeam[];
}

export interface DemoWorld {
  ownerId: string;
  /** Epoch ms: scans fall in [start, now). */
  now: number;
  start: number;
  /** The demo people (the owner excluded: it already exists). */
  users: DemoUser[];
  organizations: DemoOrganization[];
}

export interface DemoViolation extends Finding {
  id: string;
  seq: number;
}

export interface DemoScan {
  id: string;
  created_at: number;
  tool: string;
  action: string;
  tokens: number;
  status: ScanStatus;
  organization_id: string | null;
  submitted_by: string;
  /** JSON of {input, output, cached}, already serialized: it is stored as text. */
  token_breakdown: string;
  timeline: StoredTimelineEntry[];
  violations: DemoViolation[];
  worst_severity: number;
}

const iso = (ms: number): string => new Date(ms).toISOString();
const prefixed = (kind: keyof typeof ID_PREFIX, time: number, random: Random): string =>
  ID_PREFIX[kind] + seededUlid(time, random);

/** The organizations, people, memberships, teams and policies, all created before the scans. */
export function createWorld(random: Random, ownerId: string, now: number): DemoWorld {
  const start = now - DAYS * DAY_MS;
  const users: DemoUser[] = [];
  const userByName = new Map<string, DemoUser>();
  const userOf = (name: string, notBefore: number): DemoUser => {
    let user = userByName.get(name);
    if (!user) {
      const created = notBefore + random.int(0, 5 * DAY_MS);
      user = { id: prefixed('user', created, random), name, created_at: iso(created) };
      userByName.set(name, user);
      users.push(user);
    }
    return user;
  };

  const organizations = ORGANIZATIONS.map((spec, index): DemoOrganization => {
    // Spread over the weeks before the window so that every scan is newer than its organization.
    const created = start - (40 - index * 7) * DAY_MS + random.int(0, 6 * HOUR_MS);
    const id = prefixed('organization', created, random);
    const people = random.shuffle(PEOPLE).slice(0, spec.members);
    const admins = spec.members >= 8 ? 2 : 1;
    const members: DemoMember[] = [{ user_id: ownerId, role: 'owner', joined_at: iso(created) }];
    people.forEach((name, position) => {
      const joined = created + random.int(HOUR_MS, 10 * DAY_MS);
      const user = userOf(name, created - 30 * DAY_MS);
      // One co-owner, then admins, then members: every role appears in every organization.
      const role: Role = position === 0 ? 'owner' : position <= admins ? 'admin' : 'member';
      members.push({ user_id: user.id, role, joined_at: iso(joined) });
    });
    const teams = spec.teams.map((name): DemoTeam => {
      const teamCreated = created + random.int(DAY_MS, 12 * DAY_MS);
      const candidates = members.slice(1);
      const chosen = random.sample(candidates, 0.45);
      if (chosen.length === 0) chosen.push(random.pick(candidates));
      return {
        id: prefixed('team', teamCreated, random),
        name,
        created_at: iso(teamCreated),
        members: chosen.map((member) => ({
          user_id: member.user_id,
          added_at: iso(Math.max(teamCreated, Date.parse(member.joined_at)) + random.int(0, DAY_MS)),
        })),
      };
    });
    return { id, name: spec.name, plan: spec.plan, created_at: iso(created), policy: spec.policy, members, teams };
  });
  return { ownerId, now, start, users, organizations };
}

/** Who submits for one source of scans (an organization, or the owner's personal use). */
interface Group {
  organizationId: string | null;
  policy: Policy | null;
  submitters: WeightedPicker<string>;
  tools: WeightedPicker<ToolRuntime>;
}

interface ToolRuntime {
  spec: ToolSpec;
  kind: KindSpec;
  primary: WeightedPicker<string>;
  steps: WeightedPicker<string>;
}

const TOOL_RUNTIMES = new Map<string, ToolRuntime>(
  TOOLS.map((spec) => [
    spec.name,
    {
      spec,
      kind: KINDS[spec.kind],
      primary: new WeightedPicker(spec.primaryActions),
      steps: new WeightedPicker(spec.stepActions),
    },
  ]),
);

function toolPicker(weights: Readonly<Record<string, number>>): WeightedPicker<ToolRuntime> {
  return new WeightedPicker(
    Object.entries(weights).map(([name, weight]) => {
      const runtime = TOOL_RUNTIMES.get(name);
      if (!runtime) throw new Error(`the demo catalog names an unknown tool "${name}"`);
      return [runtime, weight] as const;
    }),
  );
}

const sample = (random: Random, spread: Spread): number => random.logNormal(spread.median, spread.sigma);

/**
 * Streams `count` scans in created_at order. The hour of every scan is drawn up front (one
 * number per hour), then each hour's scans are made as they are asked for, so memory stays small
 * for a million scans and inserts append to the indexes instead of scattering.
 */
export class ScanGenerator {
  private readonly groups: Group[];
  /** Per hour of the window: which group a scan of that hour belongs to. */
  private readonly hourGroups: WeightedPicker<number>[];
  private readonly perHour: Uint32Array;
  private hour = 0;
  private pending: number[] = [];
  private produced = 0;

  constructor(
    private readonly world: DemoWorld,
    private readonly random: Random,
    readonly count: number,
  ) {
    const specs = [
      ...ORGANIZATIONS.map((spec, index) => ({ spec, organization: world.organizations[index]! })),
      { spec: PERSONAL, organization: null },
    ];
    this.groups = specs.map(({ spec, organization }) => ({
      organizationId: organization?.id ?? null,
      policy: organization?.policy ?? null,
      submitters: organization
        ? new WeightedPicker(
            organization.members.map((member) => {
              // A few heavy users and many light ones; the owner mostly watches.
              const activity = member.user_id === world.ownerId ? 0.3 : random.logNormal(1, 0.8);
              return [member.user_id, activity] as const;
            }),
          )
        : new WeightedPicker([[world.ownerId, 1]]),
      tools: toolPicker(spec.tools),
    }));

    const hours = DAYS * 24;
    const noise = specs.map(() => Array.from({ length: DAYS + 1 }, () => random.logNormal(1, 0.15)));
    const totals: (readonly [number, number])[] = [];
    this.hourGroups = [];
    for (let hour = 0; hour < hours; hour++) {
      const at = world.start + hour * HOUR_MS;
      // Adoption grows over the window: the last weeks are busier than the first.
      const trend = 0.7 + 0.6 * (hour / hours);
      const weights = specs.map(({ spec }, index) => {
        const local = new Date(at + spec.utcOffsetHours * HOUR_MS);
        const weekday = local.getUTCDay();
        const weekend = weekday === 0 || weekday === 6 ? WEEKEND_FACTOR : 1;
        const day = Math.floor(hour / 24);
        return [
          index,
          spec.weight * HOUR_WEIGHTS[local.getUTCHours()]! * weekend * noise[index]![day]! * trend,
        ] as const;
      });
      this.hourGroups.push(new WeightedPicker(weights));
      totals.push([hour, weights.reduce((sum, [, weight]) => sum + weight, 0)]);
    }
    const hourPicker = new WeightedPicker(totals);
    this.perHour = new Uint32Array(hours);
    for (let i = 0; i < count; i++) this.perHour[hourPicker.pick(random)]! += 1;
  }

  /** The next scan in created_at order, or undefined after `count`. */
  next(): DemoScan | undefined {
    if (this.produced >= this.count) return undefined;
    while (this.pending.length === 0) {
      const n = this.perHour[this.hour]!;
      const hourStart = this.world.start + this.hour * HOUR_MS;
      const times: number[] = [];
      for (let i = 0; i < n; i++) times.push(hourStart + this.random.int(0, HOUR_MS - 1));
      // Reversed so that pop() hands out the earliest first.
      this.pending = times.sort((a, b) => b - a);
      this.hour += 1;
    }
    this.produced += 1;
    return this.scanAt(this.pending.pop()!, this.hour - 1);
  }

  private scanAt(createdAt: number, hour: number): DemoScan {
    const random = this.random;
    const group = this.groups[this.hourGroups[hour]!.pick(random)]!;
    const submittedBy = group.submitters.pick(random);
    const tool = group.tools.pick(random);
    const action = tool.primary.pick(random);
    const id = prefixed('scan', createdAt, random);

    let length = Math.min(MAX_TIMELINE, Math.max(1, Math.round(sample(random, tool.kind.length))));
    const timeline: StoredTimelineEntry[] = [];
    // Entries start just after the scan is created and move strictly forward.
    let timestamp = createdAt + random.int(20, 1_500);
    for (let i = 0; i < length; i++) {
      const entryAction = i === 0 ? action : tool.steps.pick(random);
      const tokens = Math.max(1, Math.round(sample(random, ACTION_TOKENS[entryAction]!)));
      timeline.push({ timestamp, action: entryAction, tokens });
      timestamp += 1 + Math.round(sample(random, tool.kind.gapMs));
    }

    let status: ScanStatus = 'completed';
    const now = this.world.now;
    const roll = random.float();
    if (timeline[timeline.length - 1]!.timestamp >= now) {
      // Still going at `now`: only what already happened is recorded.
      status = 'running';
      length = Math.max(
        1,
        timeline.findIndex((entry) => entry.timestamp >= now),
      );
    } else if (now - createdAt < RECENT_MS && roll < RECENT_RUNNING_SHARE) {
      status = 'running';
    } else if (now - createdAt < RECENT_MS && roll < RECENT_RUNNING_SHARE + RECENT_PENDING_SHARE) {
      status = 'pending';
      length = 1;
    } else if (roll > 1 - FAILED_SHARE) {
      // A failure cuts the run short somewhere.
      status = 'failed';
      length = random.int(1, length);
    }
    timeline.length = length;

    let tokens = 0;
    for (const entry of timeline) tokens += entry.tokens;
    const [cachedMin, cachedMax] = tool.kind.cachedShare;
    const [outputMin, outputMax] = tool.kind.outputShare;
    const cached = Math.round(tokens * (cachedMin + random.float() * (cachedMax - cachedMin)));
    const output = Math.round((tokens - cached) * (outputMin + random.float() * (outputMax - outputMin)));
    const input = tokens - cached - output;

    const findings = group.policy ? evaluatePolicy(group.policy, { tool: tool.spec.name, tokens, timeline }) : [];
    const violations = findings.map((finding, seq): DemoViolation => ({
      id: prefixed('violation', createdAt, random),
      seq,
      ...finding,
    }));
    return {
      id,
      created_at: createdAt,
      tool: tool.spec.name,
      action,
      tokens,
      status,
      organization_id: group.organizationId,
      submitted_by: submittedBy,
      // A template instead of JSON.stringify: a million of these, always three integers.
      token_breakdown: `{"input":${input},"output":${output},"cached":${cached}}`,
      timeline,
      violations,
      worst_severity: worstSeverityRank(findings.map((finding) => finding.severity)),
    };
  }
}
