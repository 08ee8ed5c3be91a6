import { formatTimestamp } from '../../../shared/time';
import type { BinaryCopyRows } from '../../db/index';
import type { TimelineExportChunk, TimelineTuple } from '../timeline/timeline-entry';
import { DAY_MS, HOUR_MS } from '../../../shared/time';

/**
 * One line of timeline.jsonl (docs/contract/package-format.md#layout): the format itself, and the
 * encoder's slow path.
 */
export function timelineLine(timestamp: number, action: string, tokens: number): string {
  return `{"timestamp":"${formatTimestamp(timestamp)}","action":${JSON.stringify(action)},"tokens":${tokens}}\n`;
}

/** The instants a Date can hold: ±100,000,000 days around 1970. */
const MAX_MS = 8.64e15;
/** Actions are few (tool verbs); a timeline of unique ones takes the slow path past this many. */
const ACTION_CACHE_SIZE = 1024;
/** Bytes of a line besides its action: 37 of fixed text, a timestamp ≤ 27, tokens ≤ 10. */
const LINE_ROOM = 80;
const CODE_0 = 0x30;

const CLOSE_BRACE = 0x7d;
const NEWLINE = 0x0a;

const ascii = (text: string): Buffer => Buffer.from(text, 'latin1');

/** The fields of a COPY chunk, in TimelineTuple's order. */
const TIMESTAMP = 1;
const ACTION = 2;
const TOKENS = 3;
/** 32-bit FNV-1a. */
const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

interface ActionBytes {
  utf8: Buffer;
  part: Buffer;
  next: ActionBytes | undefined;
}

/**
 * Writes timeline rows as timeline.jsonl bytes, identical to timelineLine's, at a third of its
 * cost on long timelines: the export is bound by this and by reading rows. The day part of
 * timestamps and the JSON of each action are encoded once and copied; the time of day and the
 * token counts are written digit by digit. Rows whose values are not what the schema promises
 * (non-integer or out-of-range numbers, text where numbers belong) go through timelineLine.
 * One encoder per stream: it keeps the current day and the actions seen.
 */
export class TimelineJsonlEncoder {
  private buffer: Buffer = Buffer.allocUnsafe(1 << 20);
  private dayStart = Number.NaN;
  /** A line's bytes up to its time of day: `{"timestamp":"YYYY-MM-DDT` of dayStart, as formatTimestamp writes it. */
  private dayHead: Buffer = Buffer.alloc(0);
  /** A line's bytes between its time of day and its tokens, by action: `","action":"…","tokens":`. */
  private readonly actionParts = new Map<string, Buffer>();
  /** The same actions by the hash of their UTF-8 bytes, colliding ones chained. */
  private readonly actionPartsByBytes = new Map<number, ActionBytes>();

  /** The lines of `rows`, in a buffer of their own. */
  encode(rows: TimelineExportChunk): Buffer {
    const end = Array.isArray(rows) ? this.encodeTuples(rows) : this.encodeCopy(rows);
    return Buffer.from(this.buffer.subarray(0, end));
  }

  private encodeTuples(rows: readonly TimelineTuple[]): number {
    let at = 0;
    for (let i = 0; i < rows.length; i++) {
      const row = rows[i]!;
      const timestamp = row[1];
      const action = row[2];
      const tokens = row[3];
      const part = typeof action === 'string' ? this.actionPart(action) : undefined;
      at =
        part !== undefined && this.fits(timestamp, tokens)
          ? this.writeLine(at, timestamp, part, tokens)
          : this.writeText(at, timelineLine(timestamp, action, tokens));
    }
    return at;
  }

  /** The same lines from a binary COPY: the action's JSON found by its bytes, no string made. */
  private encodeCopy(rows: BinaryCopyRows): number {
    const bytes = rows.bytes;
    let at = 0;
    for (let i = 0; i < rows.length; i++) {
      const timestamp = rows.int8(i, TIMESTAMP);
      const tokens = rows.int8(i, TOKENS);
      const part = this.actionPartOfBytes(bytes, rows.start(i, ACTION), rows.end(i, ACTION));
      at =
        part !== undefined && this.fits(timestamp, tokens)
          ? this.writeLine(at, timestamp, part, tokens)
          : this.writeText(at, timelineLine(timestamp, rows.text(i, ACTION), tokens));
    }
    return at;
  }

  /**
   * Whether the fast path writes these values as timelineLine would: tokens an integer in
   * 0..2^31-1 (the digit loop's range), and a timestamp formatTimestamp writes in the usual form.
   */
  private fits(timestamp: number, tokens: number): boolean {
    return (tokens | 0) === tokens && tokens >= 0 && this.enterDay(timestamp);
  }

  /** A line at `at` from its parts; returns where it ends. */
  private writeLine(at: number, timestamp: number, action: Buffer, tokens: number): number {
    this.reserve(at, LINE_ROOM + action.length);
    const out = this.buffer;
    at = copy(this.dayHead, out, at);
    at = writeTimeOfDay(timestamp - this.dayStart, out, at);
    at = copy(action, out, at);
    at = writeCount(tokens, out, at);
    out[at] = CLOSE_BRACE;
    out[at + 1] = NEWLINE;
    return at + 2;
  }

  /** A line made by timelineLine, at `at`; returns where it ends. */
  private writeText(at: number, line: string): number {
    this.reserve(at, line.length * 3);
    return at + this.buffer.write(line, at);
  }

  /**
   * actionPart for the action whose UTF-8 bytes are bytes[start, end): found by a hash of them,
   * checked byte by byte.
   */
  private actionPartOfBytes(bytes: Buffer, start: number, end: number): Buffer | undefined {
    let hash = FNV_OFFSET;
    for (let i = start; i < end; i++) hash = Math.imul(hash ^ bytes[i]!, FNV_PRIME);
    for (let known = this.actionPartsByBytes.get(hash); known !== undefined; known = known.next) {
      if (sameBytes(known.utf8, bytes, start, end)) return known.part;
    }
    const part = this.actionPart(bytes.toString('utf8', start, end));
    if (part === undefined) return undefined;
    const utf8 = Buffer.from(bytes.subarray(start, end));
    this.actionPartsByBytes.set(hash, { utf8, part, next: this.actionPartsByBytes.get(hash) });
    return part;
  }

  /** The bytes between a line's time and tokens for `action`, from the cache; undefined once the cache is full. */
  private actionPart(action: string): Buffer | undefined {
    let part = this.actionParts.get(action);
    if (part === undefined && this.actionParts.size < ACTION_CACHE_SIZE) {
      part = Buffer.from(`","action":${JSON.stringify(action)},"tokens":`, 'utf8');
      this.actionParts.set(action, part);
    }
    return part;
  }

  /** Makes the day of `ms` the current one; false for what formatTimestamp should handle itself. */
  private enterDay(ms: number): boolean {
    const offset = ms - this.dayStart;
    if (offset >= 0 && offset < DAY_MS && Number.isInteger(ms)) return true;
    if (typeof ms !== 'number' || !Number.isInteger(ms) || ms < -MAX_MS || ms > MAX_MS) return false;
    this.dayStart = Math.floor(ms / DAY_MS) * DAY_MS;
    const iso = formatTimestamp(this.dayStart);
    this.dayHead = ascii(`{"timestamp":"${iso.slice(0, iso.indexOf('T') + 1)}`);
    return true;
  }

  /** Room for `bytes` more after `at`. */
  private reserve(at: number, bytes: number): void {
    if (at + bytes <= this.buffer.length) return;
    const grown = Buffer.allocUnsafe(Math.max(this.buffer.length * 2, at + bytes));
    this.buffer.copy(grown, 0, 0, at);
    this.buffer = grown;
  }
}

function sameBytes(known: Buffer, bytes: Buffer, start: number, end: number): boolean {
  if (known.length !== end - start) return false;
  for (let i = 0; i < known.length; i++) if (known[i] !== bytes[start + i]) return false;
  return true;
}

// Byte loops: for the few bytes copied here they beat Buffer#copy's call into C++.
function copy(source: Buffer, target: Buffer, at: number): number {
  if (source.length > 64) return at + source.copy(target, at);
  for (let i = 0; i < source.length; i++) target[at++] = source[i]!;
  return at;
}

/** `HH:MM:SS.mmmZ` of `ms` milliseconds into a day. */
function writeTimeOfDay(ms: number, out: Buffer, at: number): number {
  // As an int32 (a day is 86,400,000 ms) every step below is integer arithmetic; on the double it
  // is, `%` calls fmod.
  const t = ms | 0;
  const hours = (t / HOUR_MS) | 0;
  const minutes = ((t / 60_000) | 0) % 60;
  const seconds = ((t / 1000) | 0) % 60;
  const millis = t % 1000;
  out[at] = CODE_0 + ((hours / 10) | 0);
  out[at + 1] = CODE_0 + (hours % 10);
  out[at + 2] = 0x3a; // :
  out[at + 3] = CODE_0 + ((minutes / 10) | 0);
  out[at + 4] = CODE_0 + (minutes % 10);
  out[at + 5] = 0x3a;
  out[at + 6] = CODE_0 + ((seconds / 10) | 0);
  out[at + 7] = CODE_0 + (seconds % 10);
  out[at + 8] = 0x2e; // .
  out[at + 9] = CODE_0 + ((millis / 100) | 0);
  out[at + 10] = CODE_0 + (((millis / 10) | 0) % 10);
  out[at + 11] = CODE_0 + (millis % 10);
  out[at + 12] = 0x5a; // Z
  return at + 13;
}

/** The decimal digits of an integer in 0..2^31-1. */
function writeCount(n: number, out: Buffer, at: number): number {
  const count = n | 0;
  let end = at + 1;
  for (let rest = count; rest >= 10; rest = (rest / 10) | 0) end++;
  for (let i = end - 1, rest = count; i >= at; i--, rest = (rest / 10) | 0) out[i] = CODE_0 + (rest % 10);
  return end;
}
