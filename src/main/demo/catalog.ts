import type { Plan } from '../../shared/api/common';
import type { Policy } from '../../shared/api/policies';
import { HOUR_MS } from '../../shared/time';

/**
 * The fixed cast of the demo: tools, actions, organizations and people, with the weights that
 * make the generated activity look like a real company's. Only numbers live here; generate.ts
 * turns them into rows.
 */

export type ToolKind = 'chat' | 'code' | 'agent';

/** A log-normal described by its median and the sigma of the underlying normal. */
export interface Spread {
  median: number;
  sigma: number;
}

export interface ToolSpec {
  name: string;
  kind: ToolKind;
  /** The scan's own action, which is also its first timeline entry. */
  primaryActions: readonly (readonly [string, number])[];
  /** The actions of the following timeline entries. */
  stepActions: readonly (readonly [string, number])[];
}

export interface KindSpec {
  /** Timeline length before clamping to 1–200. */
  length: Spread;
  /** Milliseconds between consecutive timeline entries. */
  gapMs: Spread;
  /** Share of the tokens served from cache, and of the rest that is output. */
  cachedShare: readonly [number, number];
  outputShare: readonly [number, number];
}

export const MAX_TIMELINE = 200;

export const KINDS: Record<ToolKind, KindSpec> = {
  // Mostly one to three turns of conversation, minutes apart.
  chat: {
    length: { median: 2.4, sigma: 0.95 },
    gapMs: { median: 45_000, sigma: 0.8 },
    cachedShare: [0, 0.2],
    outputShare: [0.25, 0.5],
  },
  // Bursts of completions seconds apart while someone types.
  code: {
    length: { median: 6.2, sigma: 1.0 },
    gapMs: { median: 7_000, sigma: 0.9 },
    cachedShare: [0.2, 0.6],
    outputShare: [0.1, 0.3],
  },
  // Long runs of tool calls; agents re-read a lot, so much is cached.
  agent: {
    length: { median: 18, sigma: 0.9 },
    gapMs: { median: 5_000, sigma: 0.9 },
    cachedShare: [0.35, 0.75],
    outputShare: [0.08, 0.25],
  },
};

/** Tokens of one request, by action. */
export const ACTION_TOKENS: Record<string, Spread> = {
  'chat.completion': { median: 700, sigma: 0.85 },
  'code.completion': { median: 120, sigma: 0.6 },
  'code.edit': { median: 1_400, sigma: 0.75 },
  'agent.run': { median: 3_500, sigma: 0.7 },
  'file.read': { median: 1_800, sigma: 0.95 },
  'file.write': { median: 650, sigma: 0.8 },
  'shell.exec': { median: 350, sigma: 0.9 },
  'web.search': { median: 1_100, sigma: 0.6 },
  embedding: { median: 400, sigma: 0.8 },
};

export const TOOLS: readonly ToolSpec[] = [
  {
    name: 'ChatGPT',
    kind: 'chat',
    primaryActions: [
      ['chat.completion', 92],
      ['embedding', 8],
    ],
    stepActions: [
      ['chat.completion', 75],
      ['web.search', 10],
      ['file.read', 10],
      ['code.edit', 5],
    ],
  },
  {
    name: 'Claude',
    kind: 'chat',
    primaryActions: [
      ['chat.completion', 97],
      ['embedding', 3],
    ],
    stepActions: [
      ['chat.completion', 78],
      ['file.read', 14],
      ['web.search', 6],
      ['code.edit', 2],
    ],
  },
  {
    name: 'Gemini',
    kind: 'chat',
    primaryActions: [
      ['chat.completion', 90],
      ['embedding', 10],
    ],
    stepActions: [
      ['chat.completion', 72],
      ['web.search', 20],
      ['file.read', 8],
    ],
  },
  {
    name: 'GitHub Copilot',
    kind: 'code',
    primaryActions: [
      ['code.completion', 85],
      ['chat.completion', 10],
      ['code.edit', 5],
    ],
    stepActions: [
      ['code.completion', 78],
      ['code.edit', 10],
      ['chat.completion', 7],
      ['file.read', 5],
    ],
  },
  {
    name: 'Cursor',
    kind: 'code',
    primaryActions: [
      ['code.completion', 60],
      ['code.edit', 30],
      ['chat.completion', 10],
    ],
    stepActions: [
      ['code.completion', 45],
      ['code.edit', 25],
      ['chat.completion', 12],
      ['file.read', 12],
      ['shell.exec', 6],
    ],
  },
  {
    name: 'Codeium',
    kind: 'code',
    primaryActions: [
      ['code.completion', 90],
      ['chat.completion', 10],
    ],
    stepActions: [
      ['code.completion', 82],
      ['code.edit', 10],
      ['chat.completion', 8],
    ],
  },
  {
    name: 'Claude Code',
    kind: 'agent',
    primaryActions: [['agent.run', 100]],
    stepActions: [
      ['file.read', 32],
      ['code.edit', 24],
      ['shell.exec', 18],
      ['file.write', 10],
      ['chat.completion', 10],
      ['web.search', 6],
    ],
  },
  {
    name: 'Devin',
    kind: 'agent',
    primaryActions: [['agent.run', 100]],
    stepActions: [
      ['shell.exec', 25],
      ['file.read', 25],
      ['file.write', 18],
      ['code.edit', 14],
      ['web.search', 12],
      ['agent.run', 6],
    ],
  },
  {
    name: 'AutoGPT',
    kind: 'agent',
    primaryActions: [['agent.run', 100]],
    stepActions: [
      ['web.search', 30],
      ['agent.run', 18],
      ['shell.exec', 15],
      ['file.write', 15],
      ['file.read', 12],
      ['embedding', 10],
    ],
  },
];

export interface OrganizationSpec {
  name: string;
  plan: Plan;
  /** Fixed offset from UTC in hours: when this organization's working day happens. */
  utcOffsetHours: number;
  /** Share of all scans. */
  weight: number;
  /** How many demo people (besides `local`) are members. */
  members: number;
  teams: readonly string[];
  /** Tool name → weight: what its people actually use, allowed or not. */
  tools: Readonly<Record<string, number>>;
  policy: Policy;
}

/** Scans without an organization: the workspace owner's personal use. */
export const PERSONAL = {
  utcOffsetHours: 1,
  weight: 0.08,
  tools: { 'Claude Code': 30, Claude: 25, ChatGPT: 20, Cursor: 15, Gemini: 10 } as Readonly<Record<string, number>>,
};

export const ORGANIZATIONS: readonly OrganizationSpec[] = [
  {
    // Strict: an approved list, agents that act on their own banned, tight token limits.
    name: 'Northwind Analytics',
    plan: 'enterprise',
    utcOffsetHours: -5,
    weight: 0.34,
    members: 11,
    teams: ['Data Platform', 'Analytics Engineering', 'Security'],
    tools: {
      'GitHub Copilot': 34,
      ChatGPT: 20,
      Claude: 16,
      'Claude Code': 14,
      Cursor: 7,
      Gemini: 4,
      Codeium: 2,
      Devin: 2,
      AutoGPT: 1,
    },
    policy: {
      max_tokens_per_scan: 60_000,
      max_tokens_per_request: 12_000,
      allowed_tools: ['ChatGPT', 'Claude', 'GitHub Copilot', 'Claude Code'],
      blocked_tools: ['AutoGPT', 'Devin'],
      blocked_actions: [],
    },
  },
  {
    // Moderate: any tool but AutoGPT, and agents may not run shell commands.
    name: 'Helix Robotics',
    plan: 'team',
    utcOffsetHours: 1,
    weight: 0.28,
    members: 9,
    teams: ['Firmware', 'Perception', 'Simulation', 'DevOps'],
    tools: {
      Cursor: 30,
      'GitHub Copilot': 22,
      ChatGPT: 15,
      'Claude Code': 12,
      Claude: 10,
      Gemini: 5,
      Devin: 4,
      AutoGPT: 2,
    },
    policy: {
      max_tokens_per_scan: 250_000,
      max_tokens_per_request: null,
      allowed_tools: null,
      blocked_tools: ['AutoGPT'],
      blocked_actions: ['shell.exec'],
    },
  },
  {
    // Lax: a small studio on the free plan with the default, empty policy.
    name: 'Bluefin Studio',
    plan: 'free',
    utcOffsetHours: -8,
    weight: 0.18,
    members: 6,
    teams: ['Design', 'Web'],
    tools: { ChatGPT: 30, Cursor: 20, Codeium: 15, Gemini: 15, Claude: 10, AutoGPT: 5, Devin: 5 },
    policy: {
      max_tokens_per_scan: null,
      max_tokens_per_request: null,
      allowed_tools: null,
      blocked_tools: [],
      blocked_actions: [],
    },
  },
  {
    // Compliance-driven: few approved tools, no web search or file writes, small requests.
    name: 'Meridian Health',
    plan: 'enterprise',
    utcOffsetHours: 0,
    weight: 0.12,
    members: 8,
    teams: ['Clinical Systems', 'Research IT'],
    tools: { 'GitHub Copilot': 40, ChatGPT: 26, Gemini: 20, Claude: 7, Cursor: 4, Devin: 2, AutoGPT: 1 },
    policy: {
      max_tokens_per_scan: 40_000,
      max_tokens_per_request: 8_000,
      allowed_tools: ['GitHub Copilot', 'ChatGPT', 'Gemini'],
      blocked_tools: ['AutoGPT', 'Devin'],
      blocked_actions: ['web.search', 'file.write'],
    },
  },
];

/** The demo's people; organizations draw their members from this list. */
export const PEOPLE: readonly string[] = [
  'Ava Patel',
  'Liam Chen',
  'Sofia Rossi',
  'Noah Okafor',
  'Mia Johansson',
  'Ethan Brooks',
  'Isabella García',
  'Lucas Müller',
  'Amara Nwosu',
  'Hiro Tanaka',
  'Chloé Martin',
  'Mateo Silva',
  'Priya Raman',
  'Oliver Hughes',
  'Zara Ahmed',
  'Jonas Berg',
  'Emily Carter',
  'Diego Hernández',
  'Yuki Sato',
  'Fatima Haddad',
  'Ben Adeyemi',
  'Grace Kim',
];

/** Hour-of-day activity in local time, 0–23: quiet at night, a dip at lunch. */
export const HOUR_WEIGHTS: readonly number[] = [
  0.06, 0.04, 0.03, 0.03, 0.04, 0.08, 0.18, 0.4, 0.75, 1, 1, 0.95, 0.7, 0.85, 1, 1, 0.95, 0.8, 0.55, 0.4, 0.35, 0.3,
  0.2, 0.1,
];

/** Saturday and Sunday relative to a weekday. */
export const WEEKEND_FACTOR = 0.18;

/** Status shares: scans older than RECENT_MS are finished; newer ones may still be in flight. */
export const RECENT_MS = 6 * HOUR_MS;
export const FAILED_SHARE = 0.025;
export const RECENT_RUNNING_SHARE = 0.12;
export const RECENT_PENDING_SHARE = 0.05;

export const DAYS = 90;
