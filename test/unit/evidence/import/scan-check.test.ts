import { describe, expect, it } from 'vitest';
import type { PackageScan } from '../../../../src/main/evidence/import/package-scan';
import { ScanCheck } from '../../../../src/main/evidence/import/scan-check';
import type { StoredTimelineEntry } from '../../../../src/main/evidence/timeline/timeline-entry';

/** A format-1 scan whose scan.json has no action: the first timeline entry gives it. */
const scan = {
  id: 'x',
  evidenceEntry: 'scans/x/evidence.json',
  scanEntry: 'scans/x/scan.json',
  scan: { id: 'x', created_at: '2026-11-01T00:00:00.000Z', tool: 't', tokens: 3, status: 'completed', violations: [] },
  evidence: { scan_id: 'x', request_count: 2, total_tokens: 3 },
  violations: [],
  tokenBreakdown: {},
  timeline: { entry: 'scans/x/timeline.jsonl', position: (i: number) => `line ${i + 1}`, read: () => [] as never },
} as unknown as PackageScan;

describe('ScanCheck', () => {
  it('keeps the first entry as it was, though the reader reuses the objects of a chunk for the next', () => {
    const check = new ScanCheck(scan, new Set());
    const entry: StoredTimelineEntry = { timestamp: 1, action: 'first', tokens: 1 };
    check.take([entry]);
    Object.assign(entry, { timestamp: 2, action: 'second', tokens: 2 });
    check.take([entry]);
    expect(check.defaults()).toEqual({ createdAt: Date.parse('2026-11-01T00:00:00.000Z'), action: 'first' });
    expect(() => check.finish()).not.toThrow();
  });
});
