import type { Policy, PolicyImpact } from '../../shared/api/policies';
import { keyedRecord } from '../../shared/keyed-record';
import type { Finding } from '../../shared/policy/evaluate-policy';
import { SEVERITY_RANK } from '../../shared/policy/severity';

/** A stored or computed violation, as far as comparing two evaluations goes. */
export type FindingKey = Pick<Finding, 'rule' | 'severity' | 'message' | 'timeline_index'>;

/** Whether evaluating `policy` reads a scan's timeline (else tool and tokens suffice). */
export const readsTimeline = (policy: Policy): boolean =>
  policy.blocked_actions.length > 0 || policy.max_tokens_per_request !== null;

/**
 * `policy` without its scan-level rules: evaluating it over a slice of a timeline gives exactly
 * the findings the whole policy gives for those entries, so a long timeline is evaluated a slice
 * at a time (with `timeline_index` shifted by the slice's start).
 */
export const timelineRules = (policy: Policy): Policy => ({
  ...policy,
  max_tokens_per_scan: null,
  allowed_tools: null,
  blocked_tools: [],
});

// Keyed by rule names, which imported violations choose freely (`constructor`, `__proto__`).
export const emptyImpact = (): PolicyImpact => ({
  flagged_scans: 0,
  violations: 0,
  by_rule: keyedRecord(),
  by_severity: keyedRecord(),
});

/**
 * One scan's findings on one side of a comparison (stored, or the policy's), seen one at a time:
 * how many, the worst severity, and an order-free digest of their words, so that two sides compare
 * without either being held in memory.
 */
export interface ScanSide {
  count: number;
  worst: number;
  /** Sums (mod 2^32) of two unrelated 32-bit hashes of each finding's key. */
  sumA: number;
  sumB: number;
}

export const emptySide = (): ScanSide => ({ count: 0, worst: 0, sumA: 0, sumB: 0 });

const keyOf = (f: FindingKey): string => JSON.stringify([f.rule, f.severity, f.message, f.timeline_index]);

/** FNV-1a over UTF-16 code units. */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}

/** A multiply-rotate hash with murmur3's finaliser: unrelated to FNV-1a, so collisions do not coincide. */
function mixHash(text: string): number {
  let hash = 0x9747b28c ^ text.length;
  for (let i = 0; i < text.length; i++) {
    hash = Math.imul(hash ^ text.charCodeAt(i), 0x5bd1e995);
    hash = (hash << 13) | (hash >>> 19);
  }
  hash ^= hash >>> 16;
  hash = Math.imul(hash, 0x85ebca6b);
  hash ^= hash >>> 13;
  hash = Math.imul(hash, 0xc2b2ae35);
  return (hash ^ (hash >>> 16)) >>> 0;
}

/** Counts one finding of a scan: into the scan's side, and into the running impact's violations. */
export function addFinding(impact: PolicyImpact, side: ScanSide, finding: FindingKey): void {
  impact.violations += 1;
  impact.by_rule[finding.rule] = (impact.by_rule[finding.rule] ?? 0) + 1;
  impact.by_severity[finding.severity] = (impact.by_severity[finding.severity] ?? 0) + 1;
  const key = keyOf(finding);
  side.count += 1;
  side.worst = Math.max(side.worst, SEVERITY_RANK[finding.severity]);
  side.sumA = (side.sumA + fnv1a(key)) >>> 0;
  side.sumB = (side.sumB + mixHash(key)) >>> 0;
}

/** Closes a scan's side once all its findings were added: a scan with any is a flagged scan. */
export function closeSide(impact: PolicyImpact, side: ScanSide): void {
  if (side.count > 0) impact.flagged_scans += 1;
}

/**
 * Whether two sides of one scan flag the same things, word for word, in any order. Equal digests
 * of different findings would need both 32-bit sums to collide at once (about 1 in 2^64 for
 * findings that are not built to collide); the count must match too.
 */
export const sameSides = (a: ScanSide, b: ScanSide): boolean =>
  a.count === b.count && a.sumA === b.sumA && a.sumB === b.sumB;

/** One bounded step: the rows of several small items together, or a slice `[from, to)` of a large one. */
export type RowStep<K> = { kind: 'items'; keys: K[] } | { kind: 'slice'; key: K; from: number; to: number };

/**
 * Plans the reads or writes of items with known row counts (a scan's timeline entries, its
 * violations) so that no step touches more than `budget` rows: small items go together in their
 * order, an item with more rows than the budget alone in slices of its sequence numbers
 * (0 … count − 1). Items without rows are skipped.
 */
export function planSteps<K>(items: readonly { key: K; rows: number }[], budget: number): RowStep<K>[] {
  const steps: RowStep<K>[] = [];
  let keys: K[] = [];
  let rows = 0;
  const flush = (): void => {
    if (keys.length > 0) steps.push({ kind: 'items', keys });
    keys = [];
    rows = 0;
  };
  for (const item of items) {
    if (item.rows <= 0) continue;
    if (item.rows > budget) {
      flush();
      for (let from = 0; from < item.rows; from += budget) {
        steps.push({ kind: 'slice', key: item.key, from, to: Math.min(item.rows, from + budget) });
      }
      continue;
    }
    if (rows + item.rows > budget) flush();
    keys.push(item.key);
    rows += item.rows;
  }
  flush();
  return steps;
}

/**
 * How many of `rows` (a page of scans, with their sizes) to take into one round of work: as many as
 * fit `budget`, and always at least one, so that a round's bookkeeping stays small and progress
 * moves at least once per `budget` rows.
 */
export function takeWithin(rows: readonly number[], budget: number): number {
  let taken = 0;
  let sum = 0;
  for (const size of rows) {
    if (taken > 0 && sum + size > budget) break;
    sum += size;
    taken += 1;
  }
  return taken;
}
