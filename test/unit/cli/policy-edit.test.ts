import { describe, expect, it } from 'vitest';
import { applyPolicyChanges, parsePolicyChanges } from '../../../src/cli/policy-edit';
import type { Policy } from '../../../src/shared/api/policies';
import { usageMessage } from '../../helpers/assertions';

const current: Policy = {
  max_tokens_per_scan: 10_000,
  max_tokens_per_request: null,
  allowed_tools: ['claude', 'cursor'],
  blocked_tools: ['copilot'],
  blocked_actions: [],
};

describe('parsePolicyChanges', () => {
  it('turns each given flag into its field, and only those', () => {
    expect(parsePolicyChanges({ 'max-tokens-per-request': '500' })).toEqual({ max_tokens_per_request: 500 });
    expect(
      parsePolicyChanges({
        'max-tokens-per-scan': 'none',
        'max-tokens-per-request': '0',
        'allowed-tools': ' claude , cursor,,',
        'blocked-tools': 'a,b',
        'blocked-actions': 'delete',
      }),
    ).toEqual({
      max_tokens_per_scan: null,
      max_tokens_per_request: 0,
      allowed_tools: ['claude', 'cursor'],
      blocked_tools: ['a', 'b'],
      blocked_actions: ['delete'],
    });
  });

  it('"any" allows every tool; "none" or an empty value clears a block list', () => {
    expect(parsePolicyChanges({ 'allowed-tools': 'ANY' })).toEqual({ allowed_tools: null });
    expect(parsePolicyChanges({ 'blocked-tools': 'none', 'blocked-actions': '' })).toEqual({
      blocked_tools: [],
      blocked_actions: [],
    });
  });

  it('drops repeats that differ only in case, as the server compares names case-insensitively', () => {
    expect(parsePolicyChanges({ 'blocked-actions': 'Delete,delete,exec,DELETE' })).toEqual({
      blocked_actions: ['Delete', 'exec'],
    });
  });

  it.each([
    [{}, /^policy set: nothing to change/],
    [{ 'max-tokens-per-scan': 'lots' }, /^--max-tokens-per-scan must be a whole number ≥ 0 or "none", not "lots"$/],
    [{ 'max-tokens-per-request': '-5' }, /^--max-tokens-per-request must be a whole number/],
    [{ 'allowed-tools': ',' }, /^--allowed-tools needs tool names/],
    [{ 'allowed-tools': '' }, /^--allowed-tools needs tool names/],
  ])('refuses %j', (flags, message) => {
    expect(usageMessage(() => parsePolicyChanges(flags))).toMatch(message);
  });
});

describe('applyPolicyChanges', () => {
  it('replaces only the changed fields and leaves the current policy alone', () => {
    const before = structuredClone(current);
    expect(applyPolicyChanges(current, { max_tokens_per_request: 100, blocked_actions: ['exec'] })).toEqual({
      ...current,
      max_tokens_per_request: 100,
      blocked_actions: ['exec'],
    });
    expect(current).toEqual(before);
  });

  it('sets fields to null when asked, which is not the same as leaving them out', () => {
    expect(applyPolicyChanges(current, { max_tokens_per_scan: null, allowed_tools: null })).toEqual({
      ...current,
      max_tokens_per_scan: null,
      allowed_tools: null,
    });
    expect(applyPolicyChanges(current, { max_tokens_per_scan: undefined })).toEqual(current);
  });

  it('keeps fields it does not know, since PUT replaces the whole policy', () => {
    const newer = { ...current, max_scans_per_day: 3 };
    expect(applyPolicyChanges(newer, { blocked_tools: [] })).toEqual({ ...newer, blocked_tools: [] });
  });

  it('composes with parsePolicyChanges', () => {
    expect(
      applyPolicyChanges(current, parsePolicyChanges({ 'allowed-tools': 'any', 'blocked-tools': 'none' })),
    ).toEqual({ ...current, allowed_tools: null, blocked_tools: [] });
  });
});
