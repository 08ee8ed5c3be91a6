import type { ReactNode } from 'react';
import type { Severity } from '../../../../shared/api/scans';

/** A severity pill; the word is always written out, so color is never the only signal. */
export function SeverityBadge({ severity, children }: { severity: Severity; children?: ReactNode }) {
  return <span className={`badge badge-${severity}`}>{children ?? severity}</span>;
}
