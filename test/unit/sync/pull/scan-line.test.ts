import { describe, expect, it } from 'vitest';
import { DomainError } from '../../../../src/main/domain-error';
import { readScanLine } from '../../../../src/main/sync/pull/scan-line';

const scan = {
  id: 'scan_a',
  created_at: '2026-11-01T10:00:00.000Z',
  tool: 'curl',
  action: 'fetch',
  tokens: 12,
  status: 'completed',
  violations: [{ id: 'vio_a', rule: 'blocked_tool', severity: 'high', message: 'curl', timeline_index: null }],
  violation_count: 1,
  violations_truncated: false,
  organization_id: null,
  source: 'submitted',
};
const line = (value: unknown): Buffer => Buffer.from(JSON.stringify(value));
const good = {
  scan,
  evidence: { request_count: 2, total_tokens: 12, token_breakdown: { input: 12 } },
  timeline: [
    [1_793_527_200_000, 'fetch', 3],
    [1_793_527_201_000, 'parse', 9],
  ],
};

async function entries(read: AsyncIterable<unknown[]>): Promise<unknown[]> {
  const all: unknown[] = [];
  for await (const chunk of read) all.push(...chunk);
  return all;
}

function refusal(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(DomainError);
    expect((error as DomainError).code).toBe('invalid_package');
    return (error as DomainError).message;
  }
  throw new Error('not refused');
}

describe('a line of a dense answer', () => {
  it('is a package scan: the documents cross-checked, the timeline in the store form, read again on asking', async () => {
    const read = readScanLine(line(good), 1, 'scan_a');
    expect(read.kind).toBe('scan');
    if (read.kind !== 'scan') return;
    expect(read.scan).toMatchObject({
      id: 'scan_a',
      evidence: { request_count: 2, total_tokens: 12, token_breakdown: { input: 12 } },
      violations: scan.violations,
      tokenBreakdown: { input: 12 },
      origin: null,
    });
    const expected = [
      { timestamp: 1_793_527_200_000, action: 'fetch', tokens: 3 },
      { timestamp: 1_793_527_201_000, action: 'parse', tokens: 9 },
    ];
    expect(await entries(read.scan.timeline.read({ inflated: 0 }))).toEqual(expected);
    expect(await entries(read.scan.timeline.read({ inflated: 0 }))).toEqual(expected);
  });

  it('says which scans are skipped, and why', () => {
    expect(readScanLine(line({ id: 'scan_a', skipped: 'package' }), 3, 'scan_a')).toEqual({
      kind: 'skipped',
      id: 'scan_a',
      why: 'package',
    });
  });

  it('is refused, naming the line, when it is about another scan than the one asked there', () => {
    expect(refusal(() => readScanLine(line(good), 2, 'scan_b'))).toBe(
      'POST /v1/sync/scans line 2: is about scan_a, expected scan_b',
    );
    expect(refusal(() => readScanLine(line({ id: 'scan_a', skipped: 'gone' }), 1, 'scan_b'))).toMatch(
      /expected scan_b/,
    );
  });

  it('is refused for what an import refuses: fields unknown, values out of range, documents that disagree', () => {
    expect(refusal(() => readScanLine(line({ ...good, more: 1 }), 1, 'scan_a'))).toMatch(/not a scan line/);
    const late = [[253_402_300_800_000, 'fetch', 12]];
    expect(refusal(() => readScanLine(line({ ...good, timeline: late }), 1, 'scan_a'))).toMatch(/timeline\.0\.0/);
    const control = [[0, 'fe\u0007tch', 12]];
    expect(refusal(() => readScanLine(line({ ...good, timeline: control }), 1, 'scan_a'))).toMatch(/timeline\.0\.1/);
    expect(refusal(() => readScanLine(line({ ...good, scan: { ...scan, tool: '' } }), 1, 'scan_a'))).toMatch(
      /line 1 scan: not a scan in the get-scan shape/,
    );
    expect(refusal(() => readScanLine(Buffer.from([0xff, 0x7b]), 1, 'scan_a'))).toMatch(/not UTF-8 JSON/);
  });
});
