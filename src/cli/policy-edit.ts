import type { Policy } from '../shared/api/policies';
import { parseCount } from './scan-input';
import { UsageError } from './usage-error';

/** The `policy set` flags, as parseArgs gives them: absent means "leave this field alone". */
export interface PolicyFlags {
  'max-tokens-per-scan'?: string | undefined;
  'max-tokens-per-request'?: string | undefined;
  'allowed-tools'?: string | undefined;
  'blocked-tools'?: string | undefined;
  'blocked-actions'?: string | undefined;
}

export type PolicyChanges = Partial<Policy>;

function names(text: string): string[] {
  const seen = new Set<string>();
  const list: string[] = [];
  for (const name of text.split(',').map((item) => item.trim())) {
    // The server compares names case-insensitively, so a repeat in another case adds nothing.
    const folded = name.toLocaleLowerCase('en-US');
    if (name === '' || seen.has(folded)) continue;
    seen.add(folded);
    list.push(name);
  }
  return list;
}

function limit(text: string, flag: string): number | null {
  if (text.trim().toLowerCase() === 'none') return null;
  try {
    return parseCount(text, flag);
  } catch {
    throw new UsageError(`${flag} must be a whole number ≥ 0 or "none", not "${text}"`);
  }
}

/** The policy fields the flags change; a usage error if they change nothing or say something impossible. */
export function parsePolicyChanges(flags: PolicyFlags): PolicyChanges {
  const changes: PolicyChanges = {};
  const perScan = flags['max-tokens-per-scan'];
  const perRequest = flags['max-tokens-per-request'];
  const allowed = flags['allowed-tools'];
  const blockedTools = flags['blocked-tools'];
  const blockedActions = flags['blocked-actions'];
  if (perScan !== undefined) changes.max_tokens_per_scan = limit(perScan, '--max-tokens-per-scan');
  if (perRequest !== undefined) changes.max_tokens_per_request = limit(perRequest, '--max-tokens-per-request');
  if (allowed !== undefined) {
    if (allowed.trim().toLowerCase() === 'any') changes.allowed_tools = null;
    else {
      const list = names(allowed);
      if (list.length === 0) throw new UsageError('--allowed-tools needs tool names (a,b), or "any" for any tool');
      changes.allowed_tools = list;
    }
  }
  const blockList = (text: string): string[] => (text.trim().toLowerCase() === 'none' ? [] : names(text));
  if (blockedTools !== undefined) changes.blocked_tools = blockList(blockedTools);
  if (blockedActions !== undefined) changes.blocked_actions = blockList(blockedActions);
  if (Object.keys(changes).length === 0) {
    throw new UsageError(
      'policy set: nothing to change; pass --max-tokens-per-scan, --max-tokens-per-request, --allowed-tools, --blocked-tools or --blocked-actions',
    );
  }
  return changes;
}

/**
 * The policy to PUT: the current one with only the changed fields replaced. Fields this CLI does
 * not know are kept as they were, since PUT replaces the whole policy.
 */
export function applyPolicyChanges<P extends Policy>(current: P, changes: PolicyChanges): P {
  const next = { ...current };
  for (const [key, value] of Object.entries(changes) as [keyof Policy, Policy[keyof Policy] | undefined][]) {
    if (value !== undefined) Object.assign(next, { [key]: value });
  }
  return next;
}
