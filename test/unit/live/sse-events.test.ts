import { describe, expect, it } from 'vitest';
import type { ScanSummary } from '../../../src/shared/api/scans';
import { scansEvents } from '../../../src/main/live/sse-events';

const scan = (n: number): ScanSummary => ({ id: `scan_${n}`, tool: 'x'.repeat(100) }) as unknown as ScanSummary;

describe('scansEvents', () => {
  it('splits scans into events no larger than the limit, keeping every scan in order', () => {
    const scans = Array.from({ length: 200 }, (_, n) => scan(n));
    const events = scansEvents(scans, 2000);
    expect(events.length).toBeGreaterThan(1);
    const carried: ScanSummary[] = [];
    for (const event of events) {
      expect(event.length).toBeLessThanOrEqual(2000);
      const text = event.toString('utf8');
      expect(text).toMatch(/^event: scans\ndata: \{"scans":\[.*\]\}\n\n$/);
      carried.push(...(JSON.parse(text.slice('event: scans\ndata: '.length)) as { scans: ScanSummary[] }).scans);
    }
    expect(carried).toEqual(scans);
  });

  it('makes no event of no scans', () => {
    expect(scansEvents([], 2000)).toEqual([]);
  });
});
