import type { Policy } from '../../../../shared/api/policies';

export interface PolicyForm {
  maxTokensPerScan: string;
  maxTokensPerRequest: string;
  anyTool: boolean;
  allowedTools: string;
  blockedTools: string;
  blockedActions: string;
}

export type PolicyFormErrors = Partial<Record<keyof PolicyForm, string>>;

export function policyToForm(policy: Policy): PolicyForm {
  return {
    maxTokensPerScan: policy.max_tokens_per_scan === null ? '' : String(policy.max_tokens_per_scan),
    maxTokensPerRequest: policy.max_tokens_per_request === null ? '' : String(policy.max_tokens_per_request),
    anyTool: policy.allowed_tools === null,
    allowedTools: (policy.allowed_tools ?? []).join('\n'),
    blockedTools: policy.blocked_tools.join('\n'),
    blockedActions: policy.blocked_actions.join('\n'),
  };
}

/** Comma- or line-separated names; blanks dropped, repeats kept once (as first written). */
export function parseNameList(text: string): string[] {
  const seen = new Set<string>();
  const names: string[] = [];
  for (const part of text.split(/[,\n\r]+/)) {
    const name = part.trim();
    if (name === '' || seen.has(name)) continue;
    seen.add(name);
    names.push(name);
  }
  return names;
}

/** Empty means no limit; otherwise a whole number of tokens, 0 or more. */
export function parseLimit(text: string): { value: number | null } | { error: string } {
  const trimmed = text.trim();
  if (trimmed === '') return { value: null };
  if (!/^\d+$/.test(trimmed))
    return { error: 'Enter a whole number of tokens (0 or more), or leave empty for no limit.' };
  const value = Number(trimmed);
  if (!Number.isSafeInteger(value)) return { error: 'The number is too large.' };
  return { value };
}

export function formToPolicy(form: PolicyForm): { policy: Policy } | { errors: PolicyFormErrors } {
  const errors: PolicyFormErrors = {};
  const perScan = parseLimit(form.maxTokensPerScan);
  const perRequest = parseLimit(form.maxTokensPerRequest);
  if ('error' in perScan) errors.maxTokensPerScan = perScan.error;
  if ('error' in perRequest) errors.maxTokensPerRequest = perRequest.error;
  if ('error' in perScan || 'error' in perRequest) return { errors };
  return {
    policy: {
      max_tokens_per_scan: perScan.value,
      max_tokens_per_request: perRequest.value,
      // An empty list is a real policy (no tool allowed), unlike "any tool" (null).
      allowed_tools: form.anyTool ? null : parseNameList(form.allowedTools),
      blocked_tools: parseNameList(form.blockedTools),
      blocked_actions: parseNameList(form.blockedActions),
    },
  };
}

/** The errors without the one of `key`: that field was edited, and its message may no longer hold. */
export function withoutError(errors: PolicyFormErrors, key: keyof PolicyForm): PolicyFormErrors {
  if (!(key in errors)) return errors;
  return Object.fromEntries(Object.entries(errors).filter(([name]) => name !== key)) as PolicyFormErrors;
}

const sameList = (a: readonly string[] | null, b: readonly string[] | null): boolean =>
  a === null || b === null ? a === b : a.length === b.length && a.every((name, index) => name === b[index]);

/**
 * Whether the form says something other than the saved policy, so that leaving would lose it. A
 * value that does not parse counts as a change; spacing, separators and repeats do not.
 */
export function draftDiffers(form: PolicyForm, saved: Policy): boolean {
  const parsed = formToPolicy(form);
  if ('errors' in parsed) return true;
  const draft = parsed.policy;
  return (
    draft.max_tokens_per_scan !== saved.max_tokens_per_scan ||
    draft.max_tokens_per_request !== saved.max_tokens_per_request ||
    !sameList(draft.allowed_tools, saved.allowed_tools) ||
    !sameList(draft.blocked_tools, saved.blocked_tools) ||
    !sameList(draft.blocked_actions, saved.blocked_actions)
  );
}
