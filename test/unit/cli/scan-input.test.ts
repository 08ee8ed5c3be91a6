import { describe, expect, it } from 'vitest';
import {
  linesInServerOrder,
  parseBreakdown,
  parseCount,
  parseTimelineJsonl,
  timelineTokens,
} from '../../../src/cli/scan-input';
import { usageMessage } from '../../helpers/assertions';

const entry = (timestamp: string, action: string, tokens: number): string =>
  JSON.stringify({ timestamp, action, tokens });

describe('parseTimelineJsonl', () => {
  it('reads one entry per line, skipping blank lines but counting them', () => {
    const text = [
      entry('2026-11-21T04:16:15.470Z', 'chat', 10),
      '',
      '   ',
      entry('2026-11-21T04:16:16.000Z', 'edit', 5),
      '',
    ].join('\n');
    expect(parseTimelineJsonl(text, 't.jsonl')).toEqual([
      { entry: { timestamp: '2026-11-21T04:16:15.470Z', action: 'chat', tokens: 10 }, line: 1 },
      { entry: { timestamp: '2026-11-21T04:16:16.000Z', action: 'edit', tokens: 5 }, line: 4 },
    ]);
  });

  it('accepts CRLF line ends and a byte order mark', () => {
    const text = `\uFEFF${entry('2026-11-21T04:16:15Z', 'chat', 1)}\r\n${entry('2026-11-21T05:00:00+02:00', 'x', 2)}\r\n`;
    expect(parseTimelineJsonl(text, 'f').map(({ line }) => line)).toEqual([1, 2]);
  });

  it.each([
    ['{"timestamp": "2026-11-21T04:16:15Z", "action": "chat", "tokens": 1', /^t\.jsonl line 3: not valid JSON \(/],
    ['[1, 2]', /^t\.jsonl line 3: expected a JSON object/],
    ['42', /^t\.jsonl line 3: expected a JSON object/],
    ['null', /^t\.jsonl line 3: expected a JSON object/],
    ['{"action": "chat", "tokens": 1}', /^t\.jsonl line 3: missing "timestamp"$/],
    ['{"timestamp": "2026-11-21T04:16:15Z", "tokens": 1}', /^t\.jsonl line 3: missing "action"$/],
    ['{"timestamp": "2026-11-21T04:16:15Z", "action": "chat"}', /^t\.jsonl line 3: missing "tokens"$/],
    [entry('2026-11-21', 'chat', 1), /^t\.jsonl line 3: "timestamp" must be an ISO 8601 date-time/],
    [entry('2026-02-30T00:00:00Z', 'chat', 1), /"timestamp" must be/],
    [entry('yesterday', 'chat', 1), /"timestamp" must be/],
    ['{"timestamp": 1795238646485, "action": "chat", "tokens": 1}', /"timestamp" must be/],
    [entry('2026-11-21T04:16:15Z', '', 1), /^t\.jsonl line 3: "action" must be a string of 1–100 characters/],
    [entry('2026-11-21T04:16:15Z', '   ', 1), /"action" must be/],
    [entry('2026-11-21T04:16:15Z', 'a\u0007b', 1), /"action" must be/],
    [entry('2026-11-21T04:16:15Z', 'a'.repeat(101), 1), /"action" must be/],
    [entry('2026-11-21T04:16:15Z', 'chat', -1), /^t\.jsonl line 3: "tokens" must be a whole number ≥ 0, not -1$/],
    [entry('2026-11-21T04:16:15Z', 'chat', 1.5), /"tokens" must be a whole number/],
    ['{"timestamp": "2026-11-21T04:16:15Z", "action": "chat", "tokens": "7"}', /"tokens" must be .*not "7"/],
    [entry('2026-11-21T04:16:15Z', 'chat', 2 ** 53), /"tokens" must be a whole number/],
    [
      '{"timestamp": "2026-11-21T04:16:15Z", "action": "chat", "tokens": 1, "model": "x"}',
      /^t\.jsonl line 3: unknown field "model"/,
    ],
  ])('names the file and line of a bad entry: %s', (bad, message) => {
    const text = [entry('2026-11-21T04:16:15Z', 'ok', 1), '', bad, entry('2026-11-21T04:16:15Z', 'ok', 1)].join('\n');
    expect(usageMessage(() => parseTimelineJsonl(text, 't.jsonl'))).toMatch(message);
  });

  it('reports the first bad line only', () => {
    const text = ['oops', '{}'].join('\n');
    expect(usageMessage(() => parseTimelineJsonl(text, 'f'))).toMatch(/^f line 1: /);
  });

  it('refuses a file without entries', () => {
    expect(usageMessage(() => parseTimelineJsonl('\n \n', 'empty.jsonl'))).toMatch(
      /^empty\.jsonl: no timeline entries/,
    );
  });
});

describe('timelineTokens', () => {
  it('adds the tokens up', () => {
    const entries = parseTimelineJsonl(
      [entry('2026-11-21T04:16:15Z', 'a', 3), entry('2026-11-21T04:16:16Z', 'b', 4)].join('\n'),
      'f',
    );
    expect(timelineTokens(entries, 'f')).toBe(7);
  });

  it('refuses a sum that JSON cannot carry exactly', () => {
    const big = Number.MAX_SAFE_INTEGER;
    const entries = parseTimelineJsonl(
      [entry('2026-11-21T04:16:15Z', 'a', big), entry('2026-11-21T04:16:16Z', 'b', 1)].join('\n'),
      'f',
    );
    expect(usageMessage(() => timelineTokens(entries, 'f'))).toMatch(/^f: the tokens add up to more than/);
  });
});

describe('linesInServerOrder', () => {
  it('maps timeline indexes (timestamp order, stable) back to file lines', () => {
    const entries = parseTimelineJsonl(
      [
        entry('2026-11-21T04:00:02Z', 'c', 1),
        entry('2026-11-21T04:00:01Z', 'a', 1),
        '',
        entry('2026-11-21T04:00:02Z', 'd', 1),
        entry('2026-11-21T06:00:01+02:00', 'b', 1),
      ].join('\n'),
      'f',
    );
    // 04:00:01Z twice (line 2, then line 5 written with an offset), then 04:00:02Z (lines 1, 4).
    expect(linesInServerOrder(entries)).toEqual([2, 5, 1, 4]);
  });
});

describe('parseBreakdown', () => {
  it('reads TYPE=N pairs', () => {
    expect(parseBreakdown('input=1200,output=300')).toEqual({ input: 1200, output: 300 });
    expect(parseBreakdown(' input = 5 , cached=0, ')).toEqual({ input: 5, cached: 0 });
  });

  it.each([
    ['', /needs TYPE=N pairs/],
    [',', /needs TYPE=N pairs/],
    ['input', /"input" is not TYPE=N/],
    ['=5', /"=5" is not TYPE=N/],
    ['input=', /--breakdown input: expected a non-negative integer, got ""/],
    ['input=-1', /--breakdown input: expected a non-negative integer, got -1/],
    ['input=1.5', /expected a non-negative integer/],
    ['input=1e3', /expected a non-negative integer/],
    ['input=9007199254740993', /expected a non-negative integer/],
    ['input=1,input=2', /"input" is given twice/],
    [`${'t'.repeat(101)}=1`, /longer than 100 characters/],
    [Array.from({ length: 101 }, (_, i) => `t${i}=1`).join(','), /at most 100 token types/],
  ])('refuses %j', (text, message) => {
    expect(usageMessage(() => parseBreakdown(text))).toMatch(message);
  });
});

describe('parseCount', () => {
  it('accepts whole numbers within the safe range only', () => {
    expect(parseCount('0', '--tokens')).toBe(0);
    expect(parseCount('9007199254740991', '--tokens')).toBe(Number.MAX_SAFE_INTEGER);
    for (const bad of ['-1', '1.0', '0x10', 'ten', '9007199254740992']) {
      expect(usageMessage(() => parseCount(bad, '--tokens'))).toBe(
        `--tokens: expected a non-negative integer, got ${bad}`,
      );
    }
    // Nothing to show would read as a missing word: the empty value is quoted.
    expect(usageMessage(() => parseCount('', '--tokens'))).toBe('--tokens: expected a non-negative integer, got ""');
  });
});
