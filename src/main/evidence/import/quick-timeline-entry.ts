import { NAME_MAX_LENGTH, NAME_PATTERN } from '../../../shared/names';
import { canonicalTimestampMs, isCalendarDate } from '../../../shared/time';
import type { StoredTimelineEntry } from '../timeline/timeline-entry';

// Ajv compiles patterns with the `u` flag; the same flag here reads the pattern as Ajv does.
const LABEL = new RegExp(NAME_PATTERN, 'u');

/** The ASCII digits of bytes[from, to) as a number, or -1 if any of them is not a digit. */
function digits(bytes: Uint8Array, from: number, to: number): number {
  let value = 0;
  for (let i = from; i < to; i++) {
    const digit = bytes[i]! - 0x30;
    if (digit < 0 || digit > 9) return -1;
    value = value * 10 + digit;
  }
  return value;
}

const TIMESTAMP_LENGTH = 24;

/** Epoch ms of the timestamp at bytes[at, at + 24): shared canonicalTimestampMs, read from bytes. */
function timestampAt(bytes: Uint8Array, at: number): number | null {
  if (
    bytes[at + 4] !== 0x2d || // -
    bytes[at + 7] !== 0x2d ||
    bytes[at + 10] !== 0x54 || // T
    bytes[at + 13] !== 0x3a || // :
    bytes[at + 16] !== 0x3a ||
    bytes[at + 19] !== 0x2e || // .
    bytes[at + 23] !== 0x5a // Z
  ) {
    return null;
  }
  const year = digits(bytes, at, at + 4);
  const month = digits(bytes, at + 5, at + 7);
  const day = digits(bytes, at + 8, at + 10);
  const hours = digits(bytes, at + 11, at + 13);
  const minutes = digits(bytes, at + 14, at + 16);
  const seconds = digits(bytes, at + 17, at + 19);
  const millis = digits(bytes, at + 20, at + 23);
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
 * date-time parsing cost more per line than everything else in reading a timeline.
 */
export function quickTimelineEntry(value: unknown): StoredTimelineEntry | null {
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

const ascii = (text: string): Uint8Array => Uint8Array.from(text, (c) => c.charCodeAt(0));
const OPEN = ascii('{"timestamp":"');
const ACTION = ascii('","action":"');
const TOKENS = ascii('","tokens":');
const ACTION_AT = OPEN.length + TIMESTAMP_LENGTH + ACTION.length;
/** MAX_SAFE_INTEGER has 16 digits. */
const MAX_TOKEN_DIGITS = 16;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const CLOSE = 0x7d;

/** Whether bytes[at, end) starts with `pattern`. */
function startsWith(bytes: Uint8Array, at: number, end: number, pattern: Uint8Array): boolean {
  if (end - at < pattern.length) return false;
  for (let i = 0; i < pattern.length; i++) if (bytes[at + i] !== pattern[i]) return false;
  return true;
}

/** Actions remembered by a hash of their bytes; a timeline repeats a few of them. */
const ACTION_SLOTS = 256;

/**
 * Reads timeline lines written exactly as our exports write them,
 * `{"timestamp":"…","action":"…","tokens":N}` with no whitespace and no escapes, straight from
 * their UTF-8 bytes: no string for the line, and an action seen before is the string made then.
 * Anything else is null, and the caller decodes the line and parses it as JSON. On such a line
 * JSON.parse would give exactly these three strings and digits, and the checks are
 * quickTimelineEntry's, so the result is the same either way; only the cost differs.
 */
export class QuickLineReader {
  private readonly decoder = new TextDecoder('utf-8', { fatal: true });
  private readonly actions: ({ bytes: Uint8Array; text: string } | undefined)[] = new Array(ACTION_SLOTS);

  /** The entry of the line bytes[start, end), written into `into` if given, or null. */
  read(bytes: Uint8Array, start: number, end: number, into?: StoredTimelineEntry): StoredTimelineEntry | null {
    if (!startsWith(bytes, start, end, OPEN)) return null;
    if (!startsWith(bytes, start + OPEN.length + TIMESTAMP_LENGTH, end, ACTION)) return null;
    const actionAt = start + ACTION_AT;
    let actionEnd = actionAt;
    let hash = 0;
    let nonAscii = false;
    for (; actionEnd < end; actionEnd++) {
      const byte = bytes[actionEnd]!;
      if (byte === QUOTE) break;
      // A backslash starts an escape, which JSON.parse would read differently.
      if (byte === BACKSLASH) return null;
      if (byte > 0x7f) nonAscii = true;
      hash = (hash * 31 + byte) | 0;
    }
    if (!startsWith(bytes, actionEnd, end, TOKENS)) return null;
    const tokensAt = actionEnd + TOKENS.length;
    const last = end - 1;
    const length = last - tokensAt;
    if (bytes[last] !== CLOSE || length < 1 || length > MAX_TOKEN_DIGITS) return null;
    // JSON has no leading zeros.
    if (length > 1 && bytes[tokensAt] === 0x30) return null;
    const tokens = digits(bytes, tokensAt, last);
    if (tokens < 0 || tokens > Number.MAX_SAFE_INTEGER) return null;
    const timestamp = timestampAt(bytes, start + OPEN.length);
    if (timestamp === null) return null;
    const action = this.action(bytes, actionAt, actionEnd, hash, nonAscii);
    if (action === null) return null;
    if (!into) return { timestamp, action, tokens };
    into.timestamp = timestamp;
    into.action = action;
    into.tokens = tokens;
    return into;
  }

  /** The action bytes[from, to) when it is UTF-8 and a label; control characters fail the check. */
  private action(bytes: Uint8Array, from: number, to: number, hash: number, nonAscii: boolean): string | null {
    const slot = hash & (ACTION_SLOTS - 1);
    const known = this.actions[slot];
    if (known && known.bytes.length === to - from && startsWith(bytes, from, to, known.bytes)) return known.text;
    let text: string;
    if (nonAscii) {
      try {
        text = this.decoder.decode(bytes.subarray(from, to));
      } catch {
        return null;
      }
    } else {
      text = String.fromCharCode.apply(null, bytes.subarray(from, to) as unknown as number[]);
    }
    if (!isLabel(text)) return null;
    this.actions[slot] = { bytes: bytes.slice(from, to), text };
    return text;
  }
}
