import { Link } from '@tanstack/react-router';
import { formatBytes } from '../../lib/format';
import { packageIdsByStoredId, percent, summary, type ImportJob } from './import-jobs';

/** Links to the scans by the ids they are stored under, each with the package's id when it differs. */
function ScanLinks({
  label,
  ids,
  packageIds,
}: {
  label: string;
  ids: readonly string[];
  packageIds: ReadonlyMap<string, string>;
}) {
  if (ids.length === 0) return null;
  return (
    <p>
      {label}:{' '}
      {ids.map((scanId, index) => (
        <span key={scanId}>
          {index > 0 ? ', ' : null}
          <Link to="/scans/$scanId" params={{ scanId }}>
            {scanId}
          </Link>
          {packageIds.has(scanId) ? ` (package id ${packageIds.get(scanId)})` : null}
        </span>
      ))}
    </p>
  );
}

export function ImportJobItem({ job }: { job: ImportJob }) {
  const progressId = `import-progress-${job.id}`;
  // A detail that only repeats the message adds nothing; one naming an entry or field does.
  const details = (job.error?.details ?? []).filter(
    (d) => d.entry !== undefined || d.field !== undefined || d.message !== job.error?.message,
  );
  return (
    <li className={`import-job card import-job-${job.status}`}>
      <div className="import-job-head">
        <strong>{job.name}</strong> <span className="import-job-size">{formatBytes(job.size)}</span>
      </div>
      {(job.status === 'queued' || job.status === 'uploading') && (
        <div className="import-job-progress">
          <label htmlFor={progressId}>
            {job.status === 'queued' ? `Waiting: ${job.name}` : `Uploading ${job.name}: ${percent(job)}%`}
          </label>
          <progress id={progressId} max={100} value={percent(job)} />
        </div>
      )}
      {job.status === 'imported' && job.result && (
        <div role="status">
          <p className="import-job-ok">{summary(job.result)}</p>
          <ScanLinks label="Imported" ids={job.result.imported} packageIds={packageIdsByStoredId(job.result)} />
          <ScanLinks label="Unchanged" ids={job.result.unchanged} packageIds={packageIdsByStoredId(job.result)} />
        </div>
      )}
      {job.status === 'refused' && job.error && (
        <div className="state-error" role="alert">
          <p>Refused: {job.error.message}</p>
          {details.length > 0 && (
            <ul>
              {details.map((detail, index) => (
                <li key={index}>
                  {detail.entry !== undefined ? (
                    <>
                      Entry <code>{detail.entry}</code>:{' '}
                    </>
                  ) : detail.field !== undefined ? (
                    <>
                      <code>{detail.field}</code>:{' '}
                    </>
                  ) : null}
                  {detail.message}
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
    </li>
  );
}
