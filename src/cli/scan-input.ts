import { NAME_MAX_LENGTH, NAME_PATTERN } from '../shared/names';
import type { TimelineEntry, TokenBreakdown } from '../shared/api/scans';
import { parseDateOrDateTime } from '../shared/time';
import { UsageError } from './usage-error';

/** A timeline entry with the line of the file it came from, to point the user back at it. */
export interface SourcedEntry {
  entry: TimelineEntry;
  line: number;
}

const ENTRY_FIELDS = ['timestamp', 'action', 'tokens'];
// The server's label rule (src/shared/api/common.ts), kept here as a plain regex: importing the
// schema module would load TypeBox into every client command.
const LABEL = new RegExp(NAME_PATTERN, 'u');
const LABEL_MAX = NAME_MAX_LENGTH;
const MAX_BREAKDOWN_TYPES = 100;

/** A whole number ≥ 0 that JSON carries exactly; the message names the flag. */
export function parseCount(text: string, what: string): number {
  const value = Number(text);
  if (!/^\d+$/.test(text.trim()) || !Number.isSafeInteger(value)) {
    throw new UsageError(`${what}: expected a non-negative integer, got ${text.trim() === '' ? `"${text}"` : text}`);
  }
  return value;
}

function entryProblem(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return 'expected a JSON object {"timestamp", "action", "tokens"}';
  }
  const record = value as Record<string, unknown>;
  const unknown = Object.keys(record).find((key) => !ENTRY_FIELDS.includes(key));
  if (unknown !== undefined) return `unknown field "${unknown}" (expected timestamp, action, tokens)`;
  const { timestamp, action, tokens } = record;
  if (timestamp === undefined) return 'missing "timestamp"';
  if (
    typeof timestamp !== 'string' ||
    !/^\d{4}-\d\d-\d\d[Tt ]/.test(timestamp) ||
    parseDateOrDateTime(timestamp) === null
  ) {
    return `"timestamp" must be an ISO 8601 date-time such as 2026-11-21T04:16:15.470Z, not ${JSON.stringify(timestamp)}`;
  }
  if (action === undefined) return 'missing "action"';
  if (typeof action !== 'string' || !LABEL.test(action) || [...action].length > LABEL_MAX) {
    return `"action" must be a string of 1–${LABEL_MAX} characters, not only spaces, without control characters`;
  }
  if (tokens === undefined) return 'missing "tokens"';
  if (typeof tokens !== 'number' || !Number.isSafeInteger(tokens) || tokens < 0) {
    return `"tokens" must be a whole number ≥ 0, not ${JSON.stringify(tokens)}`;
  }
  return undefined;
}

/**
 * Parses a JSONL timeline: one `{timestamp, action, tokens}` object per line, blank lines ignored.
 * The first bad line becomes a usage error `FILE line N: reason`, so nothing is sent.
 */
export function parseTimelineJsonl(text: string, file: string): SourcedEntry[] {
  const entries: SourcedEntry[] = [];
  const lines = text.replace(/^\uFEFF/, '').split('\n');
  lines.forEach((raw, index) => {
    const line = index + 1;
    const content = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (content.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(content);
    } catch (error) {
      throw new UsageError(`${file} line ${line}: not valid JSON (${(error as Error).message})`);
    }
    const problem = entryProblem(value);
    if (problem !== undefined) throw new UsageError(`${file} line ${line}: ${problem}`);
    const { timestamp, action, tokens } = value as TimelineEntry;
    entries.push({ entry: { timestamp, action, tokens }, line });
  });
  if (entries.length === 0) {
    throw new UsageError(
      `${file}: no timeline entries; expected one {"timestamp", "action", "tokens"} object per line`,
    );
  }
  return entries;
}

/** The tokens of a timeline, as the scan's `tokens` must be; refused if JSON cannot carry the sum exactly. */
export function timelineTokens(entries: readonly SourcedEntry[], file: string): number {
  const sum = entries.reduce((total, { entry }) => total + entry.tokens, 0);
  if (!Number.isSafeInteger(sum)) throw new UsageError(`${file}: the tokens add up to more than 2^53 − 1`);
  return sum;
}

/**
 * The file line of each timeline index the server will report: it stores the timeline sorted by
 * timestamp (stable), and a violation's `timeline_index` points into that order.
 */
export function linesInServerOrder(entries: readonly SourcedEntry[]): number[] {
  return entries
    .map(({ entry, line }) => ({ at: parseDateOrDateTime(entry.timestamp) ?? 0, line }))
    .sort((a, b) => a.at - b.at)
    .map(({ line }) => line);
}

/** Parses `--breakdown input=1200,output=300` into `{input: 1200, output: 300}`. */
export function parseBreakdown(text: string): TokenBreakdown {
  const breakdown: TokenBreakdown = {};
  const pairs = text
    .split(',')
    .map((pair) => pair.trim())
    .filter((pair) => pair !== '');
  if (pairs.length === 0) throw new UsageError('--breakdown needs TYPE=N pairs, e.g. input=1200,output=300');
  for (const pair of pairs) {
    const equals = pair.indexOf('=');
    const type = (equals < 0 ? pair : pair.slice(0, equals)).trim();
    if (equals < 0 || type === '') {
      throw new UsageError(`--breakdown: "${pair}" is not TYPE=N, e.g. input=1200`);
    }
    if ([...type].length > LABEL_MAX)
      throw new UsageError(`--breakdown: "${type}" is longer than ${LABEL_MAX} characters`);
    if (Object.hasOwn(breakdown, type)) throw new UsageError(`--breakdown: "${type}" is given twice`);
    breakdown[type] = parseCount(pair.slice(equals + 1), `--breakdown ${type}`);
  }
  if (Object.keys(breakdown).length > MAX_BREAKDOWN_TYPES) {
    throw new UsageError(`--breakdown: at most ${MAX_BREAKDOWN_TYPES} token types`);
  }
  return breakdown;
}
