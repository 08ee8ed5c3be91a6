import type { SyncSummary } from '../../../../../shared/api/sync';
import { summaryText } from './sync-words';

/** A run's summary in a sentence, then each thing that failed and why, in the run's words. */
export function SummaryText({ summary }: { summary: SyncSummary }) {
  return (
    <>
      <span>{summaryText(summary)}</span>
      {summary.errors.length > 0 ? (
        <ul className="sync-problems">
          {summary.errors.map((problem, index) => (
            <li key={index}>
              <code>{problem.what}</code> {problem.why}
            </li>
          ))}
        </ul>
      ) : null}
    </>
  );
}
