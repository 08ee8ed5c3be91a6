import { useEffect, useState } from 'react';

/** Copies `value`, announcing the result to screen readers; `label` says what is copied. */
export function CopyButton({ value, label }: { value: string; label: string }) {
  const [status, setStatus] = useState<'idle' | 'copied' | 'failed'>('idle');

  useEffect(() => {
    if (status === 'idle') return;
    const timer = window.setTimeout(() => setStatus('idle'), 2000);
    return () => window.clearTimeout(timer);
  }, [status]);

  const copy = () => {
    navigator.clipboard.writeText(value).then(
      () => setStatus('copied'),
      () => setStatus('failed'),
    );
  };

  return (
    <span className="copy-button">
      <button type="button" onClick={copy} aria-label={`Copy ${label}`}>
        Copy
      </button>
      <span role="status" aria-live="polite" className="copy-status">
        {status === 'copied' ? 'Copied' : status === 'failed' ? 'Copy failed: select the text and copy it' : ''}
      </span>
    </span>
  );
}
