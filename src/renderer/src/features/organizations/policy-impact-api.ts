import type { PolicyComparison } from '../../../../shared/api/policies';
import { send, ServerError } from '../../lib/api-client';

export interface ImpactProgress {
  done: number;
  total: number;
}

/**
 * POSTs to a policy preview/re-evaluation route and reads its NDJSON answer as it comes:
 * progress lines, then the result (or an error line, thrown as the server's error).
 */
export async function streamImpact(
  path: string,
  body: unknown,
  onProgress: (progress: ImpactProgress) => void,
): Promise<PolicyComparison> {
  const response = await send(path, {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!response.ok || !response.body) {
    const error: unknown = await response.json().catch(() => undefined);
    throw ServerError.fromBody(response.status, error, `the server answered ${response.status}`);
  }
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffered = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (value) buffered += value;
    let end: number;
    while ((end = buffered.indexOf('\n')) !== -1) {
      const line = JSON.parse(buffered.slice(0, end)) as {
        progress?: ImpactProgress;
        result?: PolicyComparison;
        error?: { status: number };
      };
      buffered = buffered.slice(end + 1);
      if (line.progress) onProgress(line.progress);
      if (line.result) return line.result;
      if (line.error) throw ServerError.fromBody(line.error.status, { error: line.error }, 'the work failed');
    }
    if (done) throw new ServerError(0, 'network', 'the answer ended before its result', []);
  }
}
