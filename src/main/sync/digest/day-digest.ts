import { createHash } from 'node:crypto';
import type { SyncDayCounts, SyncDigestDay } from '../../../shared/api/sync';

// The convergence check's arithmetic (docs/sync.md#convergence-check). Pure: both sides fold their
// day rollup rows into per-organization days and a digest of them; the side that syncs compares.

/** Sums of one organization's scans on one UTC day (epoch ms of its midnight), as a rollup read gives them. */
export interface DayRow {
  organization: string;
  day: number;
  scans: number;
  tokens: number;
  violations: number;
}

const DAY_MS = 86_400_000;

/** The UTC day (YYYY-MM-DD) an instant in epoch ms falls on. */
export const dayOf = (epochMs: number): string =>
  new Date(Math.floor(epochMs / DAY_MS) * DAY_MS).toISOString().slice(0, 10);

/**
 * Each organization's days in order, rows of one (organization, day) summed; a day whose sums are
 * all zero (a rollup row left by deleted scans) is no day.
 */
export function foldDays(rows: readonly DayRow[]): Map<string, SyncDigestDay[]> {
  const sums = new Map<string, Map<string, SyncDigestDay>>();
  for (const row of rows) {
    const days = sums.get(row.organization) ?? new Map<string, SyncDigestDay>();
    sums.set(row.organization, days);
    const day = dayOf(row.day);
    const sum = days.get(day) ?? { day, scans: 0, tokens: 0, violations: 0 };
    days.set(day, {
      day,
      scans: sum.scans + row.scans,
      tokens: sum.tokens + row.tokens,
      violations: sum.violations + row.violations,
    });
  }
  const folded = new Map<string, SyncDigestDay[]>();
  for (const [organization, days] of sums) {
    const kept = [...days.values()]
      .filter((day) => day.scans !== 0 || day.tokens !== 0 || day.violations !== 0)
      .sort((a, b) => (a.day < b.day ? -1 : a.day > b.day ? 1 : 0));
    if (kept.length > 0) folded.set(organization, kept);
  }
  return folded;
}

/** The digest of an organization's days (in day order): both sides compute it alike. */
export function digestOfDays(days: readonly SyncDigestDay[]): string {
  const hash = createHash('sha256');
  for (const { day, scans, tokens, violations } of days) hash.update(`${day} ${scans} ${tokens} ${violations}\n`);
  return hash.digest('base64url');
}

const counts = (day: SyncDigestDay | undefined): SyncDayCounts => ({
  scans: day?.scans ?? 0,
  tokens: day?.tokens ?? 0,
  violations: day?.violations ?? 0,
});

/** The days on which two sides' sums of one organization differ, in day order. */
export function differingDays(
  here: readonly SyncDigestDay[],
  there: readonly SyncDigestDay[],
): { day: string; here: SyncDayCounts; there: SyncDayCounts }[] {
  const ours = new Map(here.map((day) => [day.day, day]));
  const theirs = new Map(there.map((day) => [day.day, day]));
  const days = [...new Set([...ours.keys(), ...theirs.keys()])].sort();
  return days
    .map((day) => ({ day, here: counts(ours.get(day)), there: counts(theirs.get(day)) }))
    .filter(({ here: a, there: b }) => a.scans !== b.scans || a.tokens !== b.tokens || a.violations !== b.violations);
}
