import { type FormEvent, useId, useState } from 'react';
import { CA_PEM_MAX_LENGTH, type CreateRemoteBody, type Remote } from '../../../../../shared/api/remotes';
import { ErrorMessage } from '../../../components/QueryState';
import { IntervalField, TokenInput } from './RemoteFields';
import { useAddRemote } from './remotes-api';

const DEFAULT_INTERVAL = 15;

/**
 * Name, URL and token of a remote, with a private CA's certificate (a PEM file picked or pasted)
 * and plain http for a remote that is not on loopback, both optional. The token field is a
 * password field, emptied once the server has it.
 */
export function AddRemoteForm({ onAdded }: { onAdded: (remote: Remote) => void }) {
  const add = useAddRemote();
  const headingId = useId();
  const tokenId = useId();
  const tokenHintId = useId();
  const [name, setName] = useState('');
  const [url, setUrl] = useState('');
  const [token, setToken] = useState('');
  const [caPem, setCaPem] = useState('');
  const [caProblem, setCaProblem] = useState<string | null>(null);
  const [insecure, setInsecure] = useState(false);
  const [background, setBackground] = useState(true);
  const [minutes, setMinutes] = useState(String(DEFAULT_INTERVAL));

  const pickCa = async (file: File | undefined): Promise<void> => {
    if (!file) return;
    if (file.size > CA_PEM_MAX_LENGTH) {
      setCaProblem(`${file.name} is larger than a CA certificate bundle can be here (64 KiB)`);
      return;
    }
    setCaProblem(null);
    setCaPem(await file.text());
  };

  const submit = (event: FormEvent): void => {
    event.preventDefault();
    const body: CreateRemoteBody = {
      name: name.trim(),
      url: url.trim(),
      token: token.trim(),
      allow_insecure_http: insecure,
      background,
      interval_minutes: Number(minutes),
      ...(caPem.trim() === '' ? {} : { ca_pem: caPem }),
    };
    add.mutate(body, {
      onSuccess: (remote) => {
        setName('');
        setUrl('');
        setToken('');
        setCaPem('');
        setInsecure(false);
        onAdded(remote);
      },
    });
  };

  return (
    <form className="sync-add" aria-labelledby={headingId} onSubmit={submit}>
      <h3 id={headingId}>Add a remote</h3>
      <label className="org-field">
        Name
        <input
          value={name}
          onChange={(event) => setName(event.target.value)}
          required
          maxLength={64}
          pattern="[a-z0-9][a-z0-9._\-]*"
          title="a–z, 0–9, . _ -, starting with a letter or digit"
          autoComplete="off"
          spellCheck={false}
          placeholder="team"
        />
      </label>
      <label className="org-field">
        URL
        <input
          type="url"
          value={url}
          onChange={(event) => setUrl(event.target.value)}
          required
          autoComplete="off"
          spellCheck={false}
          placeholder="https://scandesk.example.org"
        />
      </label>
      <div className="org-field">
        <label htmlFor={tokenId}>Token</label>
        <TokenInput id={tokenId} value={token} onChange={setToken} describedBy={tokenHintId} />
        <span id={tokenHintId} className="org-reason">
          The remote user’s token: kept in this workspace’s data directory, never shown again.
        </span>
      </div>
      <fieldset className="sync-ca">
        <legend>Private CA (optional)</legend>
        <label className="org-field">
          Certificate file (PEM)
          <input
            type="file"
            accept=".pem,.crt,.cer,application/x-pem-file"
            onChange={(event) => void pickCa(event.target.files?.[0])}
          />
        </label>
        <label className="org-field">
          or paste it
          <textarea
            value={caPem}
            onChange={(event) => setCaPem(event.target.value)}
            rows={3}
            spellCheck={false}
            placeholder="-----BEGIN CERTIFICATE-----"
          />
        </label>
        {caProblem ? (
          <p className="org-field-error" role="alert">
            {caProblem}
          </p>
        ) : null}
      </fieldset>
      <label className="settings-field">
        <input type="checkbox" checked={insecure} onChange={(event) => setInsecure(event.target.checked)} /> Allow plain
        http to a remote that is not on this machine (the token then crosses the network unencrypted)
      </label>
      <div className="sync-row">
        <label className="settings-field">
          <input type="checkbox" checked={background} onChange={(event) => setBackground(event.target.checked)} /> Sync
          in the background
        </label>
        <IntervalField value={minutes} onChange={setMinutes} />
      </div>
      <div className="token-actions">
        <button type="submit" className="primary" disabled={add.isPending}>
          {add.isPending ? 'Adding…' : 'Add remote'}
        </button>
      </div>
      {add.error ? <ErrorMessage error={add.error} /> : null}
    </form>
  );
}
