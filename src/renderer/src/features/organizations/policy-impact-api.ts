import type { PolicyComparison } from '../../../../shared/api/policies';
import { ndjsonLines } from '../../../../shared/ndjson-lines';
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
  for await (const value of ndjsonLines(response.body)) {
    const line = value as { progress?: ImpactProgress; result?: PolicyComparison; error?: { status: number } };
    if (line.progress) onProgress(line.progress);
    if (line.result) return line.result;
    if (line.error) throw ServerError.fromBody(line.error.status, { error: line.error }, 'the work failed');
  }
  throw new ServerError(0, 'network', 'the answer ended before its result', []);
}
