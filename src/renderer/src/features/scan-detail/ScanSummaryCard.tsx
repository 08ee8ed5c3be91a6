import { useState } from 'react';
import type { Scan } from '../../../../shared/api/scans';
import { ZonedTime, ZonedTitle } from '../../components/ZonedTime';
import { formatCount } from '../../lib/format';
import { useOrganizationName } from '../organizations/organizations-api';
import { remoteVerdict } from './remote-verdict';

function CopyId({ id }: { id: string }) {
  const [copied, setCopied] = useState<'yes' | 'failed' | undefined>();
  const copy = (): void => {
    navigator.clipboard.writeText(id).then(
      () => setCopied('yes'),
      () => setCopied('failed'),
    );
  };
  return (
    <>
      <button type="button" onClick={copy} aria-label={`Copy ID ${id}`}>
        Copy ID
      </button>
      <span role="status" className="muted">
        {copied === 'yes' ? 'Copied' : copied === 'failed' ? 'Could not copy: select the ID instead' : ''}
      </span>
    </>
  );
}

export function ScanSummaryCard({ scan }: { scan: Scan }) {
  const organization = useOrganizationName(scan.organization_id);
  const downloadUrl = `/v1/scans/${encodeURIComponent(scan.id)}/evidence/download`;
  return (
    <section className="card scan-summary" aria-labelledby="scan-summary-heading">
      <h2 id="scan-summary-heading" className="visually-hidden">
        Summary
      </h2>
      <div className="scan-summary-id">
        <code>{scan.id}</code> <CopyId id={scan.id} />
        <a className="button-link" href={downloadUrl} download={`scandesk-evidence-${scan.id}.zip`}>
          Download evidence
        </a>
      </div>
      <dl className="scan-summary-fields">
        <div>
          <dt>
            <ZonedTitle>Time</ZonedTitle>
          </dt>
          <dd>
            <ZonedTime value={scan.created_at} />
          </dd>
        </div>
        <div>
          <dt>Tool</dt>
          <dd>{scan.tool}</dd>
        </div>
        <div>
          <dt>Action</dt>
          <dd>{scan.action}</dd>
        </div>
        <div>
          <dt>Tokens</dt>
          <dd>{formatCount(scan.tokens)}</dd>
        </div>
        <div>
          <dt>Status</dt>
          <dd>{scan.status}</dd>
        </div>
        <div>
          <dt>Organization</dt>
          <dd>{scan.organization_id === null ? 'None' : (organization.data ?? scan.organization_id)}</dd>
        </div>
        <div>
          <dt>Source</dt>
          <dd>{scan.source}</dd>
        </div>
        {scan.origin !== undefined && (
          <div>
            {/* A link to its id on the remote (/scans/<that id>) leads here too. */}
            <dt>Pulled from</dt>
            <dd>
              {scan.origin.remote ?? 'a removed remote'}, where it is <code>{scan.origin.id}</code>
            </dd>
          </div>
        )}
        {scan.pushed?.map((push) => (
          <div key={push.remote}>
            <dt>On {push.remote}</dt>
            <dd>
              <code>{push.id}</code>: {remoteVerdict(push)}
            </dd>
          </div>
        ))}
        {scan.package_id !== undefined && (
          <div>
            {/* What the package called it (a ticket's upstream id): /scans/<package id> leads here too. */}
            <dt>Package ID</dt>
            <dd>
              <code>{scan.package_id}</code>
              {scan.package_origin !== undefined && <span className="muted"> from {scan.package_origin}</span>}
            </dd>
          </div>
        )}
      </dl>
    </section>
  );
}
