import type { Severity } from '../api/scans';

/** Severity as a number for ordering and storage: 0 means no violation. */
export const SEVERITY_RANK: Record<Severity, number> = { low: 1, medium: 2, high: 3, critical: 4 };

export const SEVERITY_BY_RANK: readonly (Severity | null)[] = [null, 'low', 'medium', 'high', 'critical'];

export function worstSeverityRank(severities: Iterable<Severity>): number {
  let worst = 0;
  for (const severity of severities) worst = Math.max(worst, SEVERITY_RANK[severity]);
  return worst;
}
