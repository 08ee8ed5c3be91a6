import type { Policy } from '../shared/api/policies';
import type { Scan, TimelineEntry, TokenBreakdown, Violation } from '../shared/api/scans';
import { fields, table } from './output';
import { terminalSafe } from './terminal-text';

/** `1234567` → `1,234,567`: token counts run into the millions. */
export const count = (n: number): string => n.toLocaleString('en-US');

export const plural = (n: number, one: string, many = `${one}s`): string => `${count(n)} ${n === 1 ? one : many}`;

/** How a violation names its timeline entry; the submit command adds the file line it came from. */
export type EntryLabel = (index: number) => string;

const defaultEntryLabel: EntryLabel = (index) => `entry ${index}`;

/** One table row per violation: severity, rule, message, timeline entry. */
export function violationsTable(violations: readonly Violation[], entryLabel = defaultEntryLabel): string {
  return table(
    ['SEVERITY', 'RULE', 'MESSAGE', 'ENTRY'],
    violations.map((v) => [
      v.severity,
      v.rule,
      v.message,
      v.timeline_index === null ? '-' : entryLabel(v.timeline_index),
    ]),
  );
}

/**
 * `2 violations:` and a row each, or `no violations`. A scan object lists only its first
 * violations when it has many: then `total` is their number, and the last line says how to page on.
 */
export function violationsBlock(
  violations: readonly Violation[],
  entryLabel = defaultEntryLabel,
  more?: { total: number; scanId: string },
): string {
  const total = more?.total ?? violations.length;
  if (total === 0) return 'no violations';
  if (!more || total <= violations.length) {
    return `${plural(total, 'violation')}:\n${violationsTable(violations, entryLabel)}`;
  }
  const shown = violations.length;
  return [
    `${plural(total, 'violation')}, the first ${count(shown)} shown:`,
    violationsTable(violations, entryLabel),
    `${count(total - shown)} more: scandesk scans violations ${more.scanId} --offset ${shown}`,
  ].join('\n');
}

export function scanBlock(scan: Scan): string {
  return fields([
    ['id', scan.id],
    ['created', scan.created_at],
    ['tool', scan.tool],
    ['action', scan.action],
    ['tokens', count(scan.tokens)],
    ['status', scan.status],
    ['organization', scan.organization_id ?? 'none'],
    ['source', scan.source],
    // An imported scan's id in its package: what a ticket or the upstream dashboard calls it.
    ...(scan.package_id === undefined ? [] : [['package id', scan.package_id] as [string, string]]),
    ...(scan.package_origin === undefined ? [] : [['package from', scan.package_origin] as [string, string]]),
  ]);
}

/** The position of a page within all matches, with the flag that fetches the next page. */
export function pageFooter(offset: number, shown: number, total: number, noun = 'scan'): string {
  if (total === 0) return `no ${noun}s match`;
  if (shown === 0) return `no ${noun}s at offset ${count(offset)}; ${plural(total, noun)} match`;
  const last = offset + shown;
  return `showing ${count(offset + 1)}–${count(last)} of ${count(total)}${last < total ? ` (next: --offset ${last})` : ''}`;
}

export function breakdownText(breakdown: TokenBreakdown): string {
  const entries = Object.entries(breakdown);
  return entries.length === 0 ? 'none' : entries.map(([type, n]) => `${terminalSafe(type)} ${count(n)}`).join(', ');
}

/** The first `limit` entries as a table, numbered as violations number them, and what was left out. */
export function timelineBlock(timeline: readonly TimelineEntry[], limit: number): string {
  if (timeline.length === 0) return 'timeline: empty';
  const shown = timeline.slice(0, limit);
  const rows = shown.map((entry, index) => [index, entry.timestamp, entry.action, count(entry.tokens)]);
  const omitted = timeline.length - shown.length;
  return [
    `timeline (${plural(timeline.length, 'entry', 'entries')}):`,
    table(['#', 'TIMESTAMP', 'ACTION', 'TOKENS'], rows, { right: [0, 3] }),
    ...(omitted > 0
      ? [
          `first ${count(shown.length)} of ${count(timeline.length)} shown, ${count(omitted)} omitted; --all shows every entry`,
        ]
      : []),
  ].join('\n');
}

const names = (list: readonly string[], empty: string): string => (list.length === 0 ? empty : list.join(', '));

export function policyBlock(policy: Policy): string {
  return fields([
    ['max tokens per scan', policy.max_tokens_per_scan === null ? 'none' : count(policy.max_tokens_per_scan)],
    ['max tokens per request', policy.max_tokens_per_request === null ? 'none' : count(policy.max_tokens_per_request)],
    [
      'allowed tools',
      policy.allowed_tools === null ? 'any' : names(policy.allowed_tools, '(none: every tool is refused)'),
    ],
    ['blocked tools', names(policy.blocked_tools, 'none')],
    ['blocked actions', names(policy.blocked_actions, 'none')],
  ]);
}
