import { useEffect, useState } from 'react';

type Health = 'checking' | 'up' | 'down';

/** Placeholder until the viewer lands: says what this is and whether the local API answers. */
export function App() {
  const [health, setHealth] = useState<Health>('checking');
  useEffect(() => {
    fetch('/healthz')
      .then((response) => setHealth(response.ok ? 'up' : 'down'))
      .catch(() => setHealth('down'));
  }, []);
  return (
    <main style={{ fontFamily: 'system-ui, sans-serif', maxWidth: '40rem', margin: '4rem auto', lineHeight: 1.5 }}>
      <h1>Scandesk</h1>
      <p>Scans, violations and evidence of AI-tool activity, on your own machine.</p>
      <p role="status">
        Local API:{' '}
        <strong>{health === 'checking' ? 'checking…' : health === 'up' ? 'running' : 'not reachable'}</strong>
      </p>
      <p>
        The viewer arrives in a later release. The API is at <code>/v1</code>; its description is at{' '}
        <code>/v1/openapi.json</code>.
      </p>
    </main>
  );
}
