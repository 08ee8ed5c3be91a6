import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { TimelineEntry } from '../../../../src/shared/api/scans';
import { parseDate, parseRfc3339DateTime } from '../../../../src/shared/time';
import { QuickLineReader, quickTimelineEntry } from '../../../../src/main/evidence/import/quick-timeline-entry';
import { makeRng } from '../../../helpers/reliability';

// The quick path may only ever accept what the full path (Ajv with the same options as the
// validator, then parseDateOrDateTime without its own quick path) accepts, with the same value; it may leave anything to it.
const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ??
  addFormatsModule) as typeof addFormatsModule;
const ajv = new Ajv({ allErrors: true, verbose: true, strict: false });
addFormats(ajv);
const validate = ajv.compile(TimelineEntry);

function fullPath(value: unknown): { timestamp: number; action: string; tokens: number } | null {
  if (!validate(value)) return null;
  const timestamp = parseDate(value.timestamp) ?? parseRfc3339DateTime(value.timestamp);
  return timestamp === null ? null : { timestamp, action: value.action, tokens: value.tokens };
}

function expectSound(value: unknown): void {
  const quick = quickTimelineEntry(value);
  if (quick !== null) expect(fullPath(value), JSON.stringify(value)).toEqual(quick);
}

/** Deterministic draws in [0, 1). */
const random = (seed: number): (() => number) => makeRng(seed).next;

const entry = (timestamp: unknown, action: unknown = 'chat.completion', tokens: unknown = 12) => ({
  timestamp,
  action,
  tokens,
});

describe('quickTimelineEntry', () => {
  it('takes what our exports write, with the full path’s values', () => {
    for (const ms of [0, 1, Date.UTC(2026, 10, 21, 4, 16, 15, 470), Date.UTC(2024, 1, 29, 23, 59, 59, 999)]) {
      const value = entry(new Date(ms).toISOString());
      expect(quickTimelineEntry(value)).toEqual({ timestamp: ms, action: 'chat.completion', tokens: 12 });
      expectSound(value);
    }
    expect(quickTimelineEntry(entry('9999-12-31T23:59:59.999Z'))?.timestamp).toBe(253_402_300_799_999);
    expect(quickTimelineEntry(entry('2026-01-01T00:00:00.000Z', 'x', Number.MAX_SAFE_INTEGER))?.tokens).toBe(
      Number.MAX_SAFE_INTEGER,
    );
  });

  it('leaves to the full path whatever is not certainly valid', () => {
    const ok = '2026-11-21T04:16:15.470Z';
    for (const value of [
      null,
      [],
      'text',
      42,
      {},
      { ...entry(ok), extra: 1 },
      JSON.parse(`{"timestamp":"${ok}","action":"a","tokens":1,"__proto__":{}}`) as unknown,
      { action: 'a', tokens: 1 },
      { timestamp: ok, tokens: 1 },
      { timestamp: ok, action: 'a' },
      entry(ok, ''),
      entry(ok, '   '),
      entry(ok, 'a\u0000b'),
      entry(ok, 'a\nb'),
      entry(ok, 'x'.repeat(101)),
      entry(ok, 5),
      entry(ok, 'a', -1),
      entry(ok, 'a', 1.5),
      entry(ok, 'a', Number.MAX_SAFE_INTEGER + 1),
      entry(ok, 'a', '1'),
      entry(ok, 'a', Number.NaN),
      entry(ok, 'a', Infinity),
      entry('2026-11-21T04:16:15Z'),
      entry('2026-11-21T04:16:15.47Z'),
      entry('2026-11-21t04:16:15.470z'),
      entry('2026-11-21 04:16:15.470Z'),
      entry('2026-11-21T04:16:15.470+00:00'),
      entry('2026-02-29T00:00:00.000Z'),
      entry('2026-04-31T00:00:00.000Z'),
      entry('2026-13-01T00:00:00.000Z'),
      entry('2026-00-01T00:00:00.000Z'),
      entry('2026-01-00T00:00:00.000Z'),
      entry('2026-01-01T24:00:00.000Z'),
      entry('2026-01-01T00:60:00.000Z'),
      entry('2016-12-31T23:59:60.000Z'),
      entry('1900-02-29T00:00:00.000Z'),
      entry('0050-06-15T01:02:03.000Z'),
      entry('+02026-01-01T00:00:00.00Z'),
      entry('2026-01-01T00:00:00.0-0Z'),
      entry('2026-01-01T00:00:00.+00Z'),
      entry('٢٠٢٦-01-01T00:00:00.000Z'),
      entry(1_700_000_000_000),
    ]) {
      expect(quickTimelineEntry(value), JSON.stringify(value)).toBeNull();
    }
  });

  it('never accepts what the full path refuses, nor reads a value differently (random near-canonical timestamps)', () => {
    const next = random(20261121);
    const pick = (text: string): string => text[Math.floor(next() * text.length)]!;
    let accepted = 0;
    for (let i = 0; i < 20_000; i++) {
      // Real instants, then one character changed into a digit, a separator or anything.
      const ms = Math.floor((next() * 2 - 0.2) * 253_402_300_799_999);
      let text = new Date(ms).toISOString();
      if (next() < 0.7) {
        const at = Math.floor(next() * text.length);
        const replacement = pick(next() < 0.8 ? '0123456789' : '-T:.Z tz+ 9');
        text = text.slice(0, at) + replacement + text.slice(at + 1);
      }
      const value = entry(text);
      if (quickTimelineEntry(value) !== null) accepted += 1;
      expectSound(value);
    }
    // Not vacuous: most of them take the quick path.
    expect(accepted).toBeGreaterThan(5_000);
  });
});

/** The full path for a line: JSON.parse, then the full entry check; null where either refuses. */
function fullLine(text: string): ReturnType<typeof fullPath> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  return fullPath(value);
}

/** One reader for every test, so that actions remembered from earlier lines are in play. */
const reader = new QuickLineReader();

/** The reader on the line's UTF-8 bytes, set between other bytes: it must stay within its line. */
function quickTimelineLine(text: string): ReturnType<QuickLineReader['read']> {
  const line = Buffer.from(text);
  const before = Buffer.from('{"x":"\n');
  const bytes = Buffer.concat([before, line, Buffer.from('"}\n{"timestamp":"')]);
  return reader.read(bytes, before.length, before.length + line.length);
}

function expectSoundLine(text: string): void {
  const quick = quickTimelineLine(text);
  if (quick !== null) expect(fullLine(text), text).toEqual(quick);
}

describe('QuickLineReader', () => {
  const line = (timestamp: string, action: string, tokens: string) =>
    `{"timestamp":"${timestamp}","action":"${action}","tokens":${tokens}}`;
  const ok = '2026-11-21T04:16:15.470Z';

  it('reads the lines our exports write, as JSON.parse and the full checks would', () => {
    for (const [action, tokens] of [
      ['chat.completion', '0'],
      ['é 日本語 🙂', '7'],
      ['a b', String(Number.MAX_SAFE_INTEGER)],
      ['x'.repeat(100), '1234567890'],
    ] as const) {
      const text = line(ok, action, tokens);
      expect(quickTimelineLine(text)).toEqual({ timestamp: Date.parse(ok), action, tokens: Number(tokens) });
      expectSoundLine(text);
    }
  });

  it('remembers actions by their bytes, never by their hash alone', () => {
    // Thousands of distinct actions share 256 slots: every one must come back as itself.
    for (let round = 0; round < 2; round++) {
      for (let i = 0; i < 3000; i++) {
        const action = `act ${i} ${'é'.repeat(i % 3)}`;
        expect(quickTimelineLine(line(ok, action, '1'))?.action).toBe(action);
      }
    }
    expect(quickTimelineLine(line(ok, 'é'.repeat(100), '1'))?.action).toBe('é'.repeat(100));
    expect(quickTimelineLine(line(ok, 'é'.repeat(101), '1'))).toBeNull();
    expect(quickTimelineLine(line(ok, 'x'.repeat(100_000), '1'))).toBeNull();
  });

  it('leaves every other line to JSON.parse', () => {
    for (const text of [
      '',
      '{}',
      line(ok, 'a', '01'),
      line(ok, 'a', '-1'),
      line(ok, 'a', '1.0'),
      line(ok, 'a', '1e3'),
      line(ok, 'a', ''),
      line(ok, 'a', String(Number.MAX_SAFE_INTEGER + 1)),
      line(ok, 'a', '9007199254740993'),
      line(ok, 'a', '12345678901234567'),
      line(ok, 'a', ' 1'),
      line(ok, 'a\\u0041', '1'),
      line(ok, 'a\\"b', '1'),
      line(ok, '', '1'),
      line(ok, '  ', '1'),
      line(ok, 'a\tb', '1'),
      line(ok, 'x'.repeat(101), '1'),
      line(ok, 'a","tokens":5,"x":"', '1'),
      line('2026-11-21T04:16:15Z', 'a', '1'),
      line('2026-02-30T04:16:15.470Z', 'a', '1'),
      line('0050-06-15T01:02:03.000Z', 'a', '1'),
      `${line(ok, 'a', '1')} `,
      `${line(ok, 'a', '1')}}`,
      line(ok, 'a', '1').replace('}', ',"extra":1}'),
      `{"timestamp":"${ok}", "action":"a","tokens":1}`,
      `{"action":"a","timestamp":"${ok}","tokens":1}`,
    ]) {
      expect(quickTimelineLine(text), text).toBeNull();
    }
  });

  it('never accepts a line the full path refuses, nor reads it differently (random mutations)', () => {
    const next = random(4790);
    const alphabet = '0123456789"\\{}:,.-TZ aé\u0000\u007f';
    let accepted = 0;
    for (let i = 0; i < 20_000; i++) {
      let text = line(new Date(Math.floor(next() * 253_402_300_799_999)).toISOString(), 'tool.call', String(i));
      for (let edits = Math.floor(next() * 3); edits > 0; edits--) {
        const at = Math.floor(next() * (text.length + 1));
        const char = alphabet[Math.floor(next() * alphabet.length)]!;
        const kind = next();
        // Replace, insert or delete one character.
        text =
          kind < 0.4
            ? text.slice(0, at) + char + text.slice(at + 1)
            : kind < 0.8
              ? text.slice(0, at) + char + text.slice(at)
              : text.slice(0, at) + text.slice(at + 1);
      }
      if (quickTimelineLine(text) !== null) accepted += 1;
      expectSoundLine(text);
    }
    expect(accepted).toBeGreaterThan(3_000);
  });
});
