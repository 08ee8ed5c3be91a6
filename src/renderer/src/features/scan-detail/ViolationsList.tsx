import type { Violation } from '../../../../shared/api/scans';
import { SeverityBadge } from '../scans/SeverityBadge';

/** The scan's violations; one that points at a timeline entry jumps to it. */
export function ViolationsList({
  violations,
  selectedEntry,
  onSelectEntry,
}: {
  violations: Violation[];
  selectedEntry: number | undefined;
  onSelectEntry: (index: number) => void;
}) {
  if (violations.length === 0) return <p className="state">No violations: this scan kept to its policy.</p>;
  return (
    <ul className="violations-list">
      {violations.map((violation) => (
        <li key={violation.id}>
          <SeverityBadge severity={violation.severity} /> <code>{violation.rule}</code> {violation.message}{' '}
          {violation.timeline_index !== null && (
            <button
              type="button"
              className="link-button"
              aria-pressed={selectedEntry === violation.timeline_index}
              onClick={() => onSelectEntry(violation.timeline_index!)}
            >
              Show entry #{violation.timeline_index}
            </button>
          )}
        </li>
      ))}
    </ul>
  );
}
