import { NAME_MAX_LENGTH, NAME_PATTERN } from '../../../shared/names';
import { isCalendarDate } from '../../../shared/time';
import type { StoredEntry } from './package-documents';

// Ajv compiles patterns with the `u` flag; the same flag here reads the pattern as Ajv does.
const LABEL = new RegExp(NAME_PATTERN, 'u');

/** The digits of text[from, to) as a number, or -1 if any of them is not a digit. */
function digits(text: string, from: number, to: number): number {
  let value = 0;
  for (let i = from; i < to; i++) {
    const digit = text.charCodeAt(i) - 0x30;
    if (digit < 0 || digit > 9) return -1;
    value = value * 10 + digit;
  }
  return value;
}

const TIMESTAMP_LENGTH = 24;

/**
 * Epoch ms of a timestamp in exactly the form our exports write (`2026-11-21T04:16:15.470Z`),
 * else null. Every field is range-checked as the date-time format does, so whatever this
 * accepts the date-time format and parseDateOrDateTime accept too, with the same value. Years
 * before 100 are left to them: Date.UTC would read those as 19xx.
 */
export const canonicalTimestampMs = (text: string): number | null =>
  text.length === TIMESTAMP_LENGTH ? timestampAt(text, 0) : null;

/** canonicalTimestampMs of text[at, at + 24), without cutting it out first. */
function timestampAt(text: string, at: number): number | null {
  if (
    text.charCodeAt(at + 4) !== 0x2d || // -
    text.charCodeAt(at + 7) !== 0x2d ||
    text.charCodeAt(at + 10) !== 0x54 || // T
    text.charCodeAt(at + 13) !== 0x3a || // :
    text.charCodeAt(at + 16) !== 0x3a ||
    text.charCodeAt(at + 19) !== 0x2e || // .
    text.charCodeAt(at + 23) !== 0x5a // Z
  ) {
    return null;
  }
  const year = digits(text, at, at + 4);
  const month = digits(text, at + 5, at + 7);
  const day = digits(text, at + 8, at + 10);
  const hours = digits(text, at + 11, at + 13);
  const minutes = digits(text, at + 14, at + 16);
  const seconds = digits(text, at + 17, at + 19);
  const millis = digits(text, at + 20, at + 23);
  if (year < 100 || !isCalendarDate(year, month, day) || hours < 0 || hours > 23) return null;
  if (minutes < 0 || minutes > 59 || seconds < 0 || seconds > 59 || millis < 0) return null;
  return Date.UTC(year, month - 1, day, hours, minutes, seconds, millis);
}

/** A label that certainly fits `Label`; length in UTF-16 units is never below Ajv's code-point count. */
const isLabel = (value: unknown): value is string =>
  typeof value === 'string' && value.length >= 1 && value.length <= NAME_MAX_LENGTH && LABEL.test(value);

/**
 * The timeline entry when it certainly fits the TimelineEntry schema and its timestamp is in the
 * canonical form, else null. Null is not a refusal: the caller then asks Ajv and the full
 * timestamp parser, which decide and word the error. Ajv's generated checks and the general
 * date-time parsing cost more per line than everything else in reading a timeline, and a
 * million-entry package is read twice.
 */
export function quickTimelineEntry(value: unknown): StoredEntry | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  // additionalProperties: false. JSON.parse gives plain objects, so for-in sees own keys only.
  for (const key in value) {
    if (key !== 'timestamp' && key !== 'action' && key !== 'tokens') return null;
  }
  const { timestamp, action, tokens } = value as Record<string, unknown>;
  if (typeof timestamp !== 'string' || !isLabel(action)) return null;
  if (typeof tokens !== 'number' || !Number.isSafeInteger(tokens) || tokens < 0) return null;
  const ms = canonicalTimestampMs(timestamp);
  return ms === null ? null : { timestamp: ms, action, tokens };
}

const OPEN = '{"timestamp":"';
const ACTION = '","action":"';
const TOKENS = '","tokens":';
const ACTION_AT = OPEN.length + TIMESTAMP_LENGTH + ACTION.length;
/** MAX_SAFE_INTEGER has 16 digits. */
const MAX_TOKEN_DIGITS = 16;

/**
 * The entry of a timeline line written exactly as our exports write it,
 * `{"timestamp":"…","action":"…","tokens":N}` with no whitespace and no escapes, read without
 * JSON.parse; else null, and the caller parses the line as JSON. On such a line JSON.parse
 * would give exactly these three strings and digits, and the checks are quickTimelineEntry's,
 * so the result is the same either way; only the cost differs.
 */
export function quickTimelineLine(text: string): StoredEntry | null {
  if (!text.startsWith(OPEN) || !text.startsWith(ACTION, OPEN.length + TIMESTAMP_LENGTH)) return null;
  const actionEnd = text.indexOf('"', ACTION_AT);
  if (actionEnd === -1 || !text.startsWith(TOKENS, actionEnd)) return null;
  const action = text.slice(ACTION_AT, actionEnd);
  // A backslash starts an escape, which JSON.parse would read differently; control characters,
  // which JSON strings cannot hold raw, fail the label check.
  if (action.includes('\\') || !isLabel(action)) return null;
  const tokensAt = actionEnd + TOKENS.length;
  const last = text.length - 1;
  const length = last - tokensAt;
  if (text.charCodeAt(last) !== 0x7d || length < 1 || length > MAX_TOKEN_DIGITS) return null; // }
  // JSON has no leading zeros.
  if (length > 1 && text.charCodeAt(tokensAt) === 0x30) return null;
  const tokens = digits(text, tokensAt, last);
  if (tokens < 0 || tokens > Number.MAX_SAFE_INTEGER) return null;
  const timestamp = timestampAt(text, OPEN.length);
  return timestamp === null ? null : { timestamp, action, tokens };
}
