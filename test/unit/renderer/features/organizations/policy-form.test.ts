import { describe, expect, it } from 'vitest';
import {
  draftDiffers,
  policyToForm,
  withoutError,
  type PolicyForm,
} from '../../../../../src/renderer/src/features/organizations/policy-form';
import type { Policy } from '../../../../../src/shared/api/policies';

const saved: Policy = {
  max_tokens_per_scan: 1000,
  max_tokens_per_request: null,
  allowed_tools: null,
  blocked_tools: ['Cursor', 'Gemini'],
  blocked_actions: [],
};
const edit = (changes: Partial<PolicyForm>): PolicyForm => ({ ...policyToForm(saved), ...changes });

describe('draftDiffers', () => {
  it('is false for the form as loaded, and for spacing, separators and repeats that parse the same', () => {
    expect(draftDiffers(policyToForm(saved), saved)).toBe(false);
    expect(draftDiffers(edit({ maxTokensPerScan: ' 1000 ', blockedTools: 'Cursor, Gemini,\nCursor' }), saved)).toBe(
      false,
    );
  });

  it('is true for any rule changed, and for a value that does not parse', () => {
    expect(draftDiffers(edit({ maxTokensPerScan: '1001' }), saved)).toBe(true);
    expect(draftDiffers(edit({ maxTokensPerRequest: '5' }), saved)).toBe(true);
    expect(draftDiffers(edit({ anyTool: false }), saved)).toBe(true);
    expect(draftDiffers(edit({ blockedTools: 'Gemini, Cursor' }), saved)).toBe(true);
    expect(draftDiffers(edit({ blockedActions: 'delete' }), saved)).toBe(true);
    expect(draftDiffers(edit({ maxTokensPerScan: 'lots' }), saved)).toBe(true);
  });

  it('tells "only these tools: none" from "any tool"', () => {
    const none: Policy = { ...saved, allowed_tools: [] };
    expect(draftDiffers(policyToForm(none), none)).toBe(false);
    expect(draftDiffers(policyToForm(none), saved)).toBe(true);
  });
});

describe('withoutError', () => {
  it("drops only the edited field's message", () => {
    const errors = { maxTokensPerScan: 'Enter a whole number', maxTokensPerRequest: 'Too large' };
    expect(withoutError(errors, 'maxTokensPerScan')).toEqual({ maxTokensPerRequest: 'Too large' });
    expect(withoutError(errors, 'blockedTools')).toBe(errors);
  });
});
