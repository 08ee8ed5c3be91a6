import { describe, expect, it } from 'vitest';
import { EMPTY_POLICY, type Policy } from '../../../../src/shared/api/policies';
import { evaluatePolicy, type Finding, type PolicySubject } from '../../../../src/shared/policy/evaluate-policy';

const policy = (overrides: Partial<Policy>): Policy => ({ ...EMPTY_POLICY, ...overrides });

const subject = (overrides: Partial<PolicySubject> = {}): PolicySubject => ({
  tool: 'claude-code',
  tokens: 300,
  timeline: [
    { action: 'edit', tokens: 100 },
    { action: 'shell', tokens: 150 },
    { action: 'read', tokens: 50 },
  ],
  ...overrides,
});

/** The findings without their wording: rule, severity and where they point. */
const shape = (findings: Finding[]): Omit<Finding, 'message'>[] =>
  findings.map(({ rule, severity, timeline_index }) => ({ rule, severity, timeline_index }));

describe('evaluatePolicy', () => {
  it('finds nothing under the empty policy, whatever the scan', () => {
    expect(evaluatePolicy(EMPTY_POLICY, subject())).toEqual([]);
    expect(evaluatePolicy(EMPTY_POLICY, subject({ tokens: Number.MAX_SAFE_INTEGER, timeline: [] }))).toEqual([]);
  });

  it('does not mutate the policy it is given', () => {
    const given = policy({ blocked_tools: ['X'], allowed_tools: ['Y'] });
    const copy = structuredClone(given);
    evaluatePolicy(given, subject());
    expect(given).toEqual(copy);
  });

  describe('tool.blocked', () => {
    it('is critical and scan-level when the tool is blocked', () => {
      const findings = evaluatePolicy(policy({ blocked_tools: ['cursor', 'claude-code'] }), subject());
      expect(findings).toEqual([
        {
          rule: 'tool.blocked',
          severity: 'critical',
          message: 'tool "claude-code" is blocked by the organization\'s policy',
          timeline_index: null,
        },
      ]);
    });

    it('does not fire for another tool', () => {
      expect(evaluatePolicy(policy({ blocked_tools: ['cursor'] }), subject())).toEqual([]);
    });

    it('compares tool names case-insensitively', () => {
      expect(shape(evaluatePolicy(policy({ blocked_tools: ['CLAUDE-Code'] }), subject()))).toEqual([
        { rule: 'tool.blocked', severity: 'critical', timeline_index: null },
      ]);
      expect(shape(evaluatePolicy(policy({ blocked_tools: ['cursor'] }), subject({ tool: 'CuRsOr' })))).toEqual([
        { rule: 'tool.blocked', severity: 'critical', timeline_index: null },
      ]);
    });

    it('is not a substring match', () => {
      expect(evaluatePolicy(policy({ blocked_tools: ['claude'] }), subject())).toEqual([]);
    });
  });

  describe('tool.not_allowed', () => {
    it('is high and scan-level when the tool is not in allowed_tools', () => {
      expect(evaluatePolicy(policy({ allowed_tools: ['cursor'] }), subject())).toEqual([
        {
          rule: 'tool.not_allowed',
          severity: 'high',
          message: 'tool "claude-code" is not one of the organization\'s allowed tools',
          timeline_index: null,
        },
      ]);
    });

    it('does not fire when the tool is allowed, in any case', () => {
      expect(evaluatePolicy(policy({ allowed_tools: ['cursor', 'Claude-Code'] }), subject())).toEqual([]);
    });

    it('allows nothing when allowed_tools is []', () => {
      expect(shape(evaluatePolicy(policy({ allowed_tools: [] }), subject()))).toEqual([
        { rule: 'tool.not_allowed', severity: 'high', timeline_index: null },
      ]);
    });

    it('allows anything when allowed_tools is null', () => {
      expect(evaluatePolicy(policy({ allowed_tools: null }), subject({ tool: 'anything' }))).toEqual([]);
    });
  });

  describe('action.blocked', () => {
    it('is high, one finding per offending entry, pointing at it', () => {
      const findings = evaluatePolicy(
        policy({ blocked_actions: ['shell'] }),
        subject({
          timeline: [
            { action: 'shell', tokens: 1 },
            { action: 'edit', tokens: 1 },
            { action: 'shell', tokens: 1 },
          ],
          tokens: 3,
        }),
      );
      expect(findings).toEqual([
        {
          rule: 'action.blocked',
          severity: 'high',
          message: 'action "shell" is blocked by the organization\'s policy',
          timeline_index: 0,
        },
        {
          rule: 'action.blocked',
          severity: 'high',
          message: 'action "shell" is blocked by the organization\'s policy',
          timeline_index: 2,
        },
      ]);
    });

    it('compares action names case-insensitively and names the action as written', () => {
      const findings = evaluatePolicy(
        policy({ blocked_actions: ['SHELL'] }),
        subject({ timeline: [{ action: 'Shell', tokens: 1 }], tokens: 1 }),
      );
      expect(findings.map((f) => [f.rule, f.timeline_index, f.message])).toEqual([
        ['action.blocked', 0, 'action "Shell" is blocked by the organization\'s policy'],
      ]);
    });

    it('looks at timeline entries, not at the scan tool', () => {
      expect(evaluatePolicy(policy({ blocked_actions: ['claude-code'] }), subject())).toEqual([]);
    });
  });

  describe('tokens.scan_limit', () => {
    it('is medium and scan-level when the scan tokens exceed the limit', () => {
      expect(evaluatePolicy(policy({ max_tokens_per_scan: 299 }), subject())).toEqual([
        {
          rule: 'tokens.scan_limit',
          severity: 'medium',
          message: 'the scan used 300 tokens, over the limit of 299 per scan',
          timeline_index: null,
        },
      ]);
    });

    it('lets a scan exactly at the limit pass', () => {
      expect(evaluatePolicy(policy({ max_tokens_per_scan: 300 }), subject())).toEqual([]);
    });

    it('treats a limit of 0 as a limit', () => {
      expect(shape(evaluatePolicy(policy({ max_tokens_per_scan: 0 }), subject({ tokens: 1 })))).toEqual([
        { rule: 'tokens.scan_limit', severity: 'medium', timeline_index: null },
      ]);
      expect(evaluatePolicy(policy({ max_tokens_per_scan: 0 }), subject({ tokens: 0, timeline: [] }))).toEqual([]);
    });

    it('writes large numbers with thousands separators', () => {
      const [finding] = evaluatePolicy(policy({ max_tokens_per_scan: 1_000_000 }), subject({ tokens: 1_234_567 }));
      expect(finding?.message).toBe('the scan used 1,234,567 tokens, over the limit of 1,000,000 per scan');
    });
  });

  describe('tokens.request_limit', () => {
    it('is low, one finding per entry over the limit', () => {
      expect(evaluatePolicy(policy({ max_tokens_per_request: 99 }), subject())).toEqual([
        {
          rule: 'tokens.request_limit',
          severity: 'low',
          message: 'a request used 100 tokens, over the limit of 99 per request',
          timeline_index: 0,
        },
        {
          rule: 'tokens.request_limit',
          severity: 'low',
          message: 'a request used 150 tokens, over the limit of 99 per request',
          timeline_index: 1,
        },
      ]);
    });

    it('lets an entry exactly at the limit pass', () => {
      expect(shape(evaluatePolicy(policy({ max_tokens_per_request: 100 }), subject()))).toEqual([
        { rule: 'tokens.request_limit', severity: 'low', timeline_index: 1 },
      ]);
      expect(evaluatePolicy(policy({ max_tokens_per_request: 150 }), subject())).toEqual([]);
    });
  });

  describe('combinations', () => {
    it('puts scan-level findings first, then per-entry findings in timeline order', () => {
      const findings = evaluatePolicy(
        {
          max_tokens_per_scan: 10,
          max_tokens_per_request: 40,
          allowed_tools: ['cursor'],
          blocked_tools: ['Claude-Code'],
          blocked_actions: ['shell', 'READ'],
        },
        subject({
          timeline: [
            { action: 'read', tokens: 10 },
            { action: 'edit', tokens: 50 },
            { action: 'shell', tokens: 60 },
            { action: 'edit', tokens: 5 },
          ],
          tokens: 125,
        }),
      );
      expect(shape(findings)).toEqual([
        { rule: 'tool.blocked', severity: 'critical', timeline_index: null },
        { rule: 'tool.not_allowed', severity: 'high', timeline_index: null },
        { rule: 'tokens.scan_limit', severity: 'medium', timeline_index: null },
        { rule: 'action.blocked', severity: 'high', timeline_index: 0 },
        { rule: 'tokens.request_limit', severity: 'low', timeline_index: 1 },
        { rule: 'action.blocked', severity: 'high', timeline_index: 2 },
        { rule: 'tokens.request_limit', severity: 'low', timeline_index: 2 },
      ]);
    });

    it('a tool both blocked and not allowed gives both findings', () => {
      expect(
        shape(evaluatePolicy(policy({ blocked_tools: ['claude-code'], allowed_tools: [] }), subject())).map(
          (f) => f.rule,
        ),
      ).toEqual(['tool.blocked', 'tool.not_allowed']);
    });

    it('an empty timeline gives only scan-level findings', () => {
      expect(
        shape(
          evaluatePolicy(
            policy({ blocked_actions: ['edit'], max_tokens_per_request: 0, max_tokens_per_scan: 0 }),
            subject({ timeline: [] }),
          ),
        ),
      ).toEqual([{ rule: 'tokens.scan_limit', severity: 'medium', timeline_index: null }]);
    });
  });
});
