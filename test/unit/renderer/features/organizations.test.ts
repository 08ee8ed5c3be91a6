import { describe, expect, it } from 'vitest';
import { change, impactRows } from '../../../../src/renderer/src/features/organizations/impact-rows';
import { EMPTY_POLICY } from '../../../../src/shared/api/policies';
import { nameProblem } from '../../../../src/renderer/src/features/organizations/name-rule';
import {
  parseOrganizationsSearch,
  tabOf,
} from '../../../../src/renderer/src/features/organizations/organizations-search';
import { permission } from '../../../../src/renderer/src/features/organizations/permissions';
import {
  formToPolicy,
  parseLimit,
  parseNameList,
  policyToForm,
} from '../../../../src/renderer/src/features/organizations/policy-form';

describe('organizations search', () => {
  it('keeps valid values', () => {
    expect(parseOrganizationsSearch({ org: 'org_1', tab: 'policy', team: 'team_2' })).toEqual({
      org: 'org_1',
      tab: 'policy',
      team: 'team_2',
    });
  });

  it('drops junk', () => {
    expect(parseOrganizationsSearch({ org: 'no/slash', tab: 'nope', team: 'team_2' })).toEqual({});
    // The router reads `?org=5` as a number; 5 is an id by the id rule all the same.
    expect(parseOrganizationsSearch({ org: 5 })).toEqual({ org: '5' });
    expect(parseOrganizationsSearch({ org: '  ', tab: ['teams'] })).toEqual({});
    expect(parseOrganizationsSearch({ org: 'x'.repeat(101) })).toEqual({});
    expect(tabOf({})).toBe('teams');
  });
});

describe('the name rule, client side', () => {
  it.each([['a'], ['Acme Corp'], ['  padded  '], ['Ünïcødé 名前'], ['x'.repeat(100)], ['😀'.repeat(100)]])(
    'accepts %j',
    (name) => expect(nameProblem(name)).toBeNull(),
  );

  it.each([[''], ['   '], ['x'.repeat(101)], ['tab\there'], ['new\nline'], ['nul\u0000'], ['del\u007f']])(
    'refuses %j',
    (name) => expect(nameProblem(name)).toEqual(expect.any(String)),
  );
});

describe('permissions', () => {
  it('follows the role table', () => {
    expect(permission('owner', 'delete').allowed).toBe(true);
    expect(permission('admin', 'delete')).toEqual({ allowed: false, reason: 'Only owners can delete an organization' });
    expect(permission('admin', 'rename').allowed).toBe(true);
    expect(permission('member', 'rename').allowed).toBe(false);
    expect(permission('admin', 'set-roles').allowed).toBe(false);
    expect(permission('admin', 'remove-member').allowed).toBe(true);
    expect(permission(undefined, 'edit-policy').allowed).toBe(false);
  });
});

describe('policy form', () => {
  it('round-trips the empty policy', () => {
    expect(formToPolicy(policyToForm(EMPTY_POLICY))).toEqual({ policy: EMPTY_POLICY });
  });

  it('parses comma- and line-separated lists', () => {
    expect(parseNameList(' curl, wget\n\nssh ,curl\r\n')).toEqual(['curl', 'wget', 'ssh']);
  });

  it('parses limits: empty is none, whole numbers only', () => {
    expect(parseLimit('')).toEqual({ value: null });
    expect(parseLimit(' 1000 ')).toEqual({ value: 1000 });
    expect(parseLimit('-1')).toHaveProperty('error');
    expect(parseLimit('1.5')).toHaveProperty('error');
    expect(parseLimit('9'.repeat(20))).toHaveProperty('error');
  });

  it('builds a policy, "any tool" as null and a list otherwise', () => {
    const form = {
      ...policyToForm(EMPTY_POLICY),
      maxTokensPerScan: '5000',
      anyTool: false,
      allowedTools: 'claude, codex',
      blockedActions: 'rm -rf',
    };
    expect(formToPolicy(form)).toEqual({
      policy: {
        ...EMPTY_POLICY,
        max_tokens_per_scan: 5000,
        allowed_tools: ['claude', 'codex'],
        blocked_actions: ['rm -rf'],
      },
    });
    expect(formToPolicy({ ...form, allowedTools: '' })).toEqual({
      policy: expect.objectContaining({ allowed_tools: [] }),
    });
  });

  it('names each field that is wrong', () => {
    const result = formToPolicy({ ...policyToForm(EMPTY_POLICY), maxTokensPerScan: 'lots', maxTokensPerRequest: '-2' });
    expect(result).toEqual({
      errors: { maxTokensPerScan: expect.any(String), maxTokensPerRequest: expect.any(String) },
    });
  });

  it('shows a stored policy as text', () => {
    const form = policyToForm({ ...EMPTY_POLICY, max_tokens_per_request: 7, allowed_tools: ['a', 'b'] });
    expect(form).toMatchObject({ maxTokensPerRequest: '7', anyTool: false, allowedTools: 'a\nb' });
  });
});

describe('impactRows', () => {
  const comparison = {
    scanned: 10,
    imported_skipped: 0,
    changed_scans: 3,
    current: { flagged_scans: 2, violations: 3, by_rule: { 'tool.blocked': 3 }, by_severity: { critical: 3 } },
    policy: {
      flagged_scans: 4,
      violations: 5,
      by_rule: { 'tool.blocked': 1, 'action.blocked': 4 },
      by_severity: { critical: 1, high: 4 },
    },
  };

  it('lists totals, every rule either side flags, and every severity, with the change', () => {
    const rows = impactRows(comparison);
    expect(rows.map((r) => [r.label, r.current, r.policy, change(r)])).toEqual([
      ['Flagged scans', 2, 4, '+2'],
      ['Violations', 3, 5, '+2'],
      ['Blocked action', 0, 4, '+4'],
      ['Blocked tool', 3, 1, '−2'],
      ['Severity low', 0, 0, '0'],
      ['Severity medium', 0, 0, '0'],
      ['Severity high', 0, 4, '+4'],
      ['Severity critical', 3, 1, '−2'],
    ]);
  });

  it('shows rules named like Object.prototype members by name, counting 0 on the side without them', () => {
    // As the API answers: JSON.parse makes `__proto__` an own key.
    const current = JSON.parse('{"constructor": 2, "__proto__": 1}') as Record<string, number>;
    const rows = impactRows({
      ...comparison,
      current: { ...comparison.current, by_rule: current },
      policy: { ...comparison.policy, by_rule: JSON.parse('{"toString": 4}') as Record<string, number> },
    });
    expect(rows.slice(2, 5).map((r) => [r.label, r.current, r.policy])).toEqual([
      ['__proto__', 1, 0],
      ['constructor', 2, 0],
      ['toString', 0, 4],
    ]);
  });
});
