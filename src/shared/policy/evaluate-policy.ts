import type { Policy } from '../api/policies';
import type { Severity } from '../api/scans';
import { foldName } from '../name-fold';

export interface PolicySubject {
  tool: string;
  tokens: number;
  /** In timestamp order: `timeline_index` points into it. */
  timeline: readonly { action: string; tokens: number }[];
}

export interface Finding {
  rule: 'tool.blocked' | 'tool.not_allowed' | 'action.blocked' | 'tokens.scan_limit' | 'tokens.request_limit';
  severity: Severity;
  message: string;
  timeline_index: number | null;
}

const fold = foldName;
const foldedSet = (names: readonly string[]): Set<string> => new Set(names.map(fold));
const count = (n: number): string => n.toLocaleString('en-US');

/**
 * The policy engine of docs/contract/policies.md#rules, a pure function: scan-level findings first, then one finding
 * per offending timeline entry, in timeline order. Names compare case-insensitively.
 */
export function evaluatePolicy(policy: Policy, subject: PolicySubject): Finding[] {
  const findings: Finding[] = [];
  const tool = fold(subject.tool);
  if (foldedSet(policy.blocked_tools).has(tool)) {
    findings.push({
      rule: 'tool.blocked',
      severity: 'critical',
      message: `tool "${subject.tool}" is blocked by the organization's policy`,
      timeline_index: null,
    });
  }
  if (policy.allowed_tools !== null && !foldedSet(policy.allowed_tools).has(tool)) {
    findings.push({
      rule: 'tool.not_allowed',
      severity: 'high',
      message: `tool "${subject.tool}" is not one of the organization's allowed tools`,
      timeline_index: null,
    });
  }
  if (policy.max_tokens_per_scan !== null && subject.tokens > policy.max_tokens_per_scan) {
    findings.push({
      rule: 'tokens.scan_limit',
      severity: 'medium',
      message: `the scan used ${count(subject.tokens)} tokens, over the limit of ${count(policy.max_tokens_per_scan)} per scan`,
      timeline_index: null,
    });
  }
  const blockedActions = foldedSet(policy.blocked_actions);
  const perRequest = policy.max_tokens_per_request;
  subject.timeline.forEach((entry, index) => {
    if (blockedActions.size > 0 && blockedActions.has(fold(entry.action))) {
      findings.push({
        rule: 'action.blocked',
        severity: 'high',
        message: `action "${entry.action}" is blocked by the organization's policy`,
        timeline_index: index,
      });
    }
    if (perRequest !== null && entry.tokens > perRequest) {
      findings.push({
        rule: 'tokens.request_limit',
        severity: 'low',
        message: `a request used ${count(entry.tokens)} tokens, over the limit of ${count(perRequest)} per request`,
        timeline_index: index,
      });
    }
  });
  return findings;
}
