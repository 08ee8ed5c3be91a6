import { formatCompact, formatCount } from '../../lib/format';
import type { Datum } from './chart-data';

// One sentence per chart, for its <figcaption>: what a sighted reader takes from the picture.

const plural = (n: number, word: string): string => `${formatCount(n)} ${word}${n === 1 ? '' : 's'}`;

export function tokensSummary(total: number, byTool: readonly Datum[], when: string): string {
  const top = byTool[0];
  if (!top || total === 0) return `No tokens ${when}.`;
  return (
    `${formatCount(total)} tokens ${when} across ${plural(byTool.length, 'tool')}; ` +
    `${top.name} used the most (${formatCompact(top.value)}).`
  );
}

/** A ranking sentence for bar charts: the total, then the top entries. */
export function rankingSummary(items: readonly Datum[], unit: string, subject: string, when: string): string {
  const total = items.reduce((sum, item) => sum + item.value, 0);
  if (total === 0) return `No ${unit}s ${when}.`;
  const top = [...items]
    .filter((item) => item.value > 0)
    .sort((a, b) => b.value - a.value)
    .slice(0, 3)
    .map((item) => `${item.name} ${formatCount(item.value)}`)
    .join(', ');
  return `${plural(total, unit)} ${when} by ${subject}; most: ${top}.`;
}

/** `peak.label` names the busiest bucket as the chart's axis does (a day, or an hour in UTC). */
export function activitySummary(
  scans: number,
  violations: number,
  peak: { label: string; scans: number } | undefined,
  when: string,
): string {
  if (scans === 0) return `No scans ${when}.`;
  const peakText = peak ? ` The busiest was ${peak.label} with ${plural(peak.scans, 'scan')}.` : '';
  return `${plural(scans, 'scan')} and ${plural(violations, 'violation')} ${when}.${peakText}`;
}
