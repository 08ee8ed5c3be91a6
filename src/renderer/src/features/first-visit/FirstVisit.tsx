import { useImport } from '../import/import-context';
import { CopyButton } from '../settings/CopyButton';
import { useSettings } from '../settings/use-settings';
import { firstSteps } from './first-steps';

/** An empty workspace: the three ways to put scans into it, with the commands for this server. */
export function FirstVisit() {
  const settings = useSettings();
  const { pick } = useImport();
  // A 403 (not the workspace owner) is an answer: that user gets the token placeholder.
  if (settings.isPending) return <p className="state">Loading…</p>;
  const steps = firstSteps(window.location.origin, settings.data?.data_dir ?? null);
  return (
    <section className="first-visit" aria-labelledby="first-visit-title">
      <h2 id="first-visit-title">No scans yet</h2>
      <p>This workspace has no scans you can see. Put some in, in any of these ways:</p>
      <ol>
        {steps.demo !== null && (
          <li>
            <strong>Try it with demo data</strong>: organizations, teams, policies and 5,000 realistic scans.
            <pre>
              <code data-testid="first-visit-demo">{steps.demo}</code>
            </pre>
            <CopyButton value={steps.demo} label="demo command" /> Then reload this page.
          </li>
        )}
        <li>
          <strong>Submit a scan</strong> from the command line; it shows here at once.
          <pre>
            <code data-testid="first-visit-submit">{steps.submit}</code>
          </pre>
          <CopyButton value={steps.submit} label="submit command" />
        </li>
        <li>
          <strong>Import an evidence package</strong> (a ZIP exported from Scandesk):{' '}
          <button type="button" onClick={pick}>
            Import evidence…
          </button>{' '}
          or drop it anywhere on this window.
        </li>
      </ol>
    </section>
  );
}
