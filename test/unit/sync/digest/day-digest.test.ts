import { describe, expect, it } from 'vitest';
import { dayOf, differingDays, digestOfDays, foldDays } from '../../../../src/main/sync/digest/day-digest';

const DAY = Date.UTC(2026, 10, 26);

describe('foldDays', () => {
  it("sums one organization's rows of a day, in day order, and drops days that sum to nothing", () => {
    const folded = foldDays([
      { organization: 'org_a', day: DAY + 86_400_000, scans: 1, tokens: 5, violations: 0 },
      { organization: 'org_a', day: DAY, scans: 2, tokens: 10, violations: 1 },
      { organization: 'org_a', day: DAY + 3_600_000, scans: 1, tokens: 1, violations: 0 },
      { organization: 'org_b', day: DAY, scans: 1, tokens: 4, violations: 0 },
      { organization: 'org_b', day: DAY, scans: -1, tokens: -4, violations: 0 },
    ]);
    expect(folded).toEqual(
      new Map([
        [
          'org_a',
          [
            { day: '2026-11-26', scans: 3, tokens: 11, violations: 1 },
            { day: '2026-11-27', scans: 1, tokens: 5, violations: 0 },
          ],
        ],
      ]),
    );
  });

  it('names days in UTC', () => {
    expect(dayOf(DAY - 1)).toBe('2026-11-25');
    expect(dayOf(DAY)).toBe('2026-11-26');
  });
});

describe('digestOfDays and differingDays', () => {
  const days = [
    { day: '2026-11-25', scans: 1, tokens: 5, violations: 0 },
    { day: '2026-11-26', scans: 2, tokens: 7, violations: 1 },
  ];

  it('gives equal days one digest, and any other sum another', () => {
    expect(digestOfDays(days)).toBe(digestOfDays(days.map((day) => ({ ...day }))));
    expect(digestOfDays(days)).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(digestOfDays([days[0]!, { ...days[1]!, violations: 2 }])).not.toBe(digestOfDays(days));
    expect(digestOfDays([days[1]!])).not.toBe(digestOfDays(days));
  });

  it('names each day whose sums differ, a day missing on one side as zeros', () => {
    expect(differingDays(days, days)).toEqual([]);
    expect(differingDays([days[1]!], [days[0]!, { ...days[1]!, tokens: 8 }])).toEqual([
      {
        day: '2026-11-25',
        here: { scans: 0, tokens: 0, violations: 0 },
        there: { scans: 1, tokens: 5, violations: 0 },
      },
      {
        day: '2026-11-26',
        here: { scans: 2, tokens: 7, violations: 1 },
        there: { scans: 2, tokens: 8, violations: 1 },
      },
    ]);
  });
});
