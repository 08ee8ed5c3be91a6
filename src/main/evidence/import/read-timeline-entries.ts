import { parseDateOrDateTime } from '../../../shared/time';
import { LineRun } from '../jsonl/line-splitter';
import type { StoredTimelineEntry } from '../timeline/timeline-entry';
import { packageError } from './import-errors';
import { QuickLineReader, quickTimelineEntry } from './quick-timeline-entry';
import { checkTimelineEntry } from './read-documents';

// A package's timeline entries, from the lines of a timeline.jsonl or from an evidence document's
// inline array, in the store's form; anything else is the refusal of the package, naming where.

/** One timeline entry, from a JSON Lines line or an inline array; `where` names it in errors. */
export function readTimelineEntry(value: unknown, entry: string, where: string): StoredTimelineEntry {
  const quick = quickTimelineEntry(value);
  if (quick) return quick;
  const { timestamp: text, action, tokens } = checkTimelineEntry(value, entry, where);
  const timestamp = parseDateOrDateTime(text);
  if (timestamp === null) {
    throw packageError({ entry, at: where, problems: ['timestamp must be an ISO 8601 date-time'] });
  }
  return { timestamp, action, tokens };
}

/**
 * Reads the lines of one timeline.jsonl: those in our exports' own form straight from their bytes
 * (QuickLineReader), any other decoded (a JsonlLineError unless UTF-8) and parsed as JSON.
 */
export class TimelineLineParser {
  private readonly quick = new QuickLineReader();

  constructor(private readonly entry: string) {}

  /** The entry of line number `line`, bytes[start, end), in `into` if given; refused with the reason. */
  parse(bytes: Buffer, start: number, end: number, line: number, into?: StoredTimelineEntry): StoredTimelineEntry {
    return (
      this.quick.read(bytes, start, end, into) ??
      parseTimelineText(LineRun.text(bytes, start, end, line), this.entry, line)
    );
  }
}

function parseTimelineText(text: string, entry: string, line: number): StoredTimelineEntry {
  if (text.trim() === '') throw packageError({ entry, at: `line ${line}`, problems: ['empty line'] });
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw packageError({ entry, at: `line ${line}`, problems: [`not JSON (${(error as Error).message})`] });
  }
  return readTimelineEntry(value, entry, `line ${line}`);
}
