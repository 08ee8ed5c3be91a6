import { useState, type DragEvent } from 'react';
import { ImportJobItem } from './ImportJobItem';
import { useImport, useImportJobs } from './import-context';
import { carriesFiles, isFinished } from './import-jobs';

export function ImportPage() {
  const { pick, importFiles } = useImport();
  const { jobs, clearFinished } = useImportJobs();
  const [over, setOver] = useState(false);

  const onDragOver = (event: DragEvent): void => {
    if (!carriesFiles(event.dataTransfer.types)) return;
    event.preventDefault();
    setOver(true);
  };
  const onDrop = (event: DragEvent): void => {
    setOver(false);
    if (!carriesFiles(event.dataTransfer.types)) return;
    // Handled here: the window-wide drop zone sees defaultPrevented and leaves it alone.
    event.preventDefault();
    importFiles(Array.from(event.dataTransfer.files));
  };

  return (
    <section className="import-page">
      <h1>Import evidence</h1>
      <div
        className={`import-drop card${over ? ' import-drop-over' : ''}`}
        onDragOver={onDragOver}
        onDragLeave={() => setOver(false)}
        onDrop={onDrop}
      >
        <p>
          Drop evidence ZIPs here or anywhere in the window. Each package is checked by the server and imported whole,
          or not at all.
        </p>
        <button type="button" className="primary" onClick={pick}>
          Choose files…
        </button>
      </div>

      <div className="import-jobs-header">
        <h2>Imports</h2>
        <button type="button" onClick={clearFinished} disabled={!jobs.some(isFinished)}>
          Clear finished
        </button>
      </div>
      {jobs.length === 0 ? (
        <p className="state">No imports yet in this window. Choose or drop evidence ZIPs to start.</p>
      ) : (
        <ul className="import-jobs" aria-label="Imports">
          {jobs.map((job) => (
            <ImportJobItem key={job.id} job={job} />
          ))}
        </ul>
      )}
    </section>
  );
}
