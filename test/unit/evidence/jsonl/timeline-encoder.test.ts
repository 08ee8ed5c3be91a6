import { describe, expect, it } from 'vitest';
import type { TimelineTuple } from '../../../../src/main/evidence/timeline/timeline-entry';
import { TimelineJsonlEncoder, timelineLine } from '../../../../src/main/evidence/jsonl/timeline-encoder';
import { BinaryCopyRows } from '../../../../src/main/db/postgres/binary-copy-rows';
import { timelineCopyOf } from '../../../helpers/binary-copy';
import { makeRng } from '../../../helpers/reliability';

const DAY = 86_400_000;

/** What the export wrote before the encoder: one template per row, UTF-8 encoded per chunk. */
const reference = (rows: readonly TimelineTuple[]): Buffer =>
  Buffer.from(rows.map(([, timestamp, action, tokens]) => timelineLine(timestamp, action, tokens)).join(''), 'utf8');

const tuples = (values: readonly (readonly [number, string, number])[]): TimelineTuple[] =>
  values.map(([timestamp, action, tokens], seq) => [seq, timestamp, action, tokens]);

/**
 * What a PostgreSQL store can hold and hand back by binary COPY: int8 numbers and text that is
 * UTF-8 without NUL (lone surrogates come back as U+FFFD, so they are left out).
 */
const copyable = ([, timestamp, action, tokens]: TimelineTuple): boolean =>
  [timestamp, tokens].every((n) => Number.isSafeInteger(n)) &&
  typeof action === 'string' &&
  !action.includes('\u0000') &&
  Buffer.from(action, 'utf8').toString('utf8') === action;

/**
 * Encodes the chunks with one encoder, as a stream does, and checks each against the reference;
 * then the same from binary COPY output, with another, for the rows a COPY can carry.
 */
function expectSameBytes(chunks: readonly (readonly TimelineTuple[])[]): void {
  const encoder = new TimelineJsonlEncoder();
  for (const rows of chunks) expect(encoder.encode(rows as TimelineTuple[]).equals(reference(rows))).toBe(true);
  const fromCopy = new TimelineJsonlEncoder();
  for (const chunk of chunks) {
    const rows = chunk.filter(copyable);
    const copy = new BinaryCopyRows(timelineCopyOf(rows), 4);
    expect(fromCopy.encode(copy).equals(reference(rows))).toBe(true);
  }
}

/** Deterministic draws in [0, 1). */
const random = (seed: number): (() => number) => makeRng(seed).next;

const ODD_ACTIONS = [
  '',
  'chat.completion',
  'say "hi"',
  'back\\slash',
  'tab\there\nnew line\r\u0000\u0001\u001f',
  'del\u007f',
  'café ünïcode',
  'emoji 🚀 pair',
  'lone high \ud800 surrogate',
  'lone low \udfff surrogate',
  'line sep \u2028 para sep \u2029',
  '</script>',
];

describe('timelineLine', () => {
  it('is the format of timeline.jsonl', () => {
    expect(timelineLine(Date.UTC(2026, 10, 1, 9, 5, 7, 42), 'chat "x"', 120)).toBe(
      '{"timestamp":"2026-11-01T09:05:07.042Z","action":"chat \\"x\\"","tokens":120}\n',
    );
  });
});

describe('TimelineJsonlEncoder', () => {
  it('writes the same bytes as timelineLine for every action JSON has to escape or encode', () => {
    const start = Date.UTC(2025, 0, 1);
    expectSameBytes([tuples(ODD_ACTIONS.map((action, i) => [start + i * 997, action, i * 13] as const))]);
  });

  it('writes every time of day and day boundary, before and after 1970 and at the ends of the range', () => {
    const instants: number[] = [];
    for (const day of [Date.UTC(2025, 5, 30), 0, -DAY, Date.UTC(1969, 11, 31), Date.UTC(2000, 1, 29)]) {
      for (const ms of [0, 1, 9, 10, 99, 100, 999, 1000, 59_999, 60_000, 3_599_999, 3_600_000, DAY - 1]) {
        instants.push(day + ms);
      }
    }
    instants.push(
      -1,
      Date.UTC(1900, 0, 1),
      -62_167_219_200_000, // 0000-01-01
      -62_167_219_200_001, // -000001-12-31
      253_402_300_799_999, // 9999-12-31T23:59:59.999Z
      253_402_300_800_000, // +010000-01-01
      8.64e15,
      -8.64e15,
    );
    expectSameBytes([tuples(instants.map((ms) => [ms, 'a', 1] as const))]);
  });

  it('writes token counts as JavaScript does, also past 2^31 and for values the schema does not expect', () => {
    const counts = [0, -0, 1, 9, 10, 99, 100, 2 ** 31 - 1, 2 ** 31, 2 ** 53 + 2, 1e21, 1.5, -1, Number.NaN];
    expectSameBytes([tuples(counts.map((tokens, i) => [Date.UTC(2025, 0, 1) + i, 'a', tokens] as const))]);
  });

  it('falls back to timelineLine for timestamps that are not integers', () => {
    // Each after an integer of the same day, which makes that day the encoder's current one.
    const rows = tuples([
      [-2, 'a', 1],
      [-1.5, 'a', 1],
      [DAY, 'a', 1],
      [DAY + 0.25, 'a', 1],
      [1.5, 'a', 1],
    ]);
    expectSameBytes([rows]);
  });

  it('formats values of other types the way the template does', () => {
    // SQLite stores text that does not look like a number as text, even in an integer column.
    const rows = [[0, Date.UTC(2025, 0, 1), 'a', 'many']] as unknown as TimelineTuple[];
    expectSameBytes([rows]);
  });

  it('throws for timestamps beyond what a Date holds, as timelineLine does', () => {
    const rows = tuples([[8.64e15 + 1, 'a', 1]]);
    expect(() => reference(rows)).toThrow(RangeError);
    expect(() => new TimelineJsonlEncoder().encode(rows)).toThrow(RangeError);
  });

  it('keeps writing the same bytes past its action cache and its initial buffer', () => {
    const start = Date.UTC(2025, 0, 1);
    const unique = tuples(Array.from({ length: 3000 }, (_, i) => [start + i * 1000, `action ${i} é`, i] as const));
    const long = tuples([
      [start, 'x'.repeat(3 << 20), 1],
      [start + 1, `${'é'.repeat(1 << 20)}"`, 2],
    ]);
    expectSameBytes([unique, long, unique.slice(0, 10)]);
  });

  it('tells apart actions whose bytes hash alike', () => {
    // The two collide in the encoder's 32-bit FNV-1a of a COPY's action bytes.
    const start = Date.UTC(2025, 0, 1);
    expectSameBytes([
      tuples([
        [start, 'tool.5pwu', 1],
        [start + 1, 'tool.g5fa', 2],
        [start + 2, 'tool.5pwu', 3],
        [start + 3, 'tool.g5fa', 4],
      ]),
    ]);
  });

  it('writes the same bytes over many mixed chunks with one encoder', () => {
    const next = random(7);
    const pick = <T>(values: readonly T[]): T => values[Math.floor(next() * values.length)]!;
    let timestamp = Date.UTC(2025, 11, 31, 20);
    const chunks: TimelineTuple[][] = [];
    for (let c = 0; c < 40; c++) {
      const rows: TimelineTuple[] = [];
      for (let i = Math.floor(next() * 500); i > 0; i--) {
        // Mostly small steps, now and then a jump of days, back in time or out of the fast path.
        const step = next() < 0.95 ? Math.floor(next() * 60_000) : Math.floor((next() - 0.3) * 10 * DAY);
        timestamp += step;
        const odd = next() < 0.01;
        rows.push([
          rows.length,
          odd ? timestamp + 0.5 : timestamp,
          pick(ODD_ACTIONS),
          odd ? 2 ** 40 : pick([0, 7, 4000]),
        ]);
      }
      chunks.push(rows);
    }
    expectSameBytes(chunks);
  });
});
