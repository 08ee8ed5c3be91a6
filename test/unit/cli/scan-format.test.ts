import { describe, expect, it } from 'vitest';
import { table } from '../../../src/cli/output';
import { breakdownText, pageFooter, scanBlock, timelineBlock, violationsBlock } from '../../../src/cli/scan-format';
import type { Scan, TimelineEntry } from '../../../src/shared/api/scans';

describe('pageFooter', () => {
  it('says which slice of how many is shown, and how to get the next', () => {
    expect(pageFooter(0, 50, 1234)).toBe('showing 1–50 of 1,234 (next: --offset 50)');
    expect(pageFooter(1200, 34, 1234)).toBe('showing 1,201–1,234 of 1,234');
    expect(pageFooter(0, 2, 2)).toBe('showing 1–2 of 2');
    expect(pageFooter(0, 0, 0)).toBe('no scans match');
    expect(pageFooter(50, 0, 1)).toBe('no scans at offset 50; 1 scan match');
  });
});

describe('violationsBlock', () => {
  it('prints one row per violation with its timeline entry, or says there are none', () => {
    expect(violationsBlock([])).toBe('no violations');
    const text = violationsBlock(
      [
        { id: 'vio_1', rule: 'tool.blocked', severity: 'critical', message: 'blocked', timeline_index: null },
        { id: 'vio_2', rule: 'action.blocked', severity: 'high', message: 'no', timeline_index: 2 },
      ],
      (index) => `entry ${index} (line ${index + 5})`,
    );
    expect(text.split('\n')).toEqual([
      '2 violations:',
      'SEVERITY  RULE            MESSAGE  ENTRY',
      'critical  tool.blocked    blocked  -',
      'high      action.blocked  no       entry 2 (line 7)',
    ]);
  });
});

describe('timelineBlock', () => {
  const timeline: TimelineEntry[] = Array.from({ length: 120 }, (_, i) => ({
    timestamp: new Date(Date.UTC(2026, 10, 21, 0, 0, i)).toISOString(),
    action: 'chat',
    tokens: i * 100,
  }));

  it('shows the first entries and says how many were left out', () => {
    const lines = timelineBlock(timeline, 50).split('\n');
    expect(lines[0]).toBe('timeline (120 entries):');
    expect(lines).toHaveLength(1 + 1 + 50 + 1);
    expect(lines.at(-1)).toBe('first 50 of 120 shown, 70 omitted; --all shows every entry');
  });

  it('shows everything when the limit allows', () => {
    const lines = timelineBlock(timeline, Infinity).split('\n');
    expect(lines).toHaveLength(1 + 1 + 120);
    expect(lines.at(-1)).toBe('119  2026-11-21T00:01:59.000Z  chat    11,900');
  });
});

describe('table and breakdownText', () => {
  it('right-aligns the columns asked for', () => {
    expect(
      table(
        ['N', 'NAME'],
        [
          [5, 'a'],
          [1234, 'bb'],
        ],
        { right: [0] },
      ).split('\n'),
    ).toEqual(['   N  NAME', '   5  a', '1234  bb']);
  });

  it('writes a breakdown as `type count` pairs', () => {
    expect(breakdownText({})).toBe('none');
    expect(breakdownText({ input: 1200, output: 30 })).toBe('input 1,200, output 30');
  });
});

describe('scanBlock', () => {
  const scan: Scan = {
    id: 'scan_1',
    created_at: '2026-11-21T04:16:15.470Z',
    tool: 'cursor',
    action: 'chat',
    tokens: 1200,
    status: 'completed',
    violations: [],
    violation_count: 0,
    violations_truncated: false,
    organization_id: null,
    source: 'imported',
  };

  it("names an imported scan's package id and origin, and says nothing of them for other scans", () => {
    expect(scanBlock(scan)).not.toContain('package');
    const lines = scanBlock({ ...scan, package_id: 'UP-1', package_origin: 'scandesk 0.4.0' }).split('\n');
    expect(lines.slice(-2)).toEqual(['package id    UP-1', 'package from  scandesk 0.4.0']);
  });

  it('escapes control characters in an origin', () => {
    expect(scanBlock({ ...scan, package_id: 'UP-1', package_origin: 'x\u001b[2Jy' })).not.toContain('\u001b');
  });
});
