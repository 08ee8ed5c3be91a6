import { PassThrough, type Readable } from 'node:stream';
import { ERROR_STATUS } from '../../shared/api/errors';
import { DomainError } from '../domain-error';

/** Progress lines at most this often: a million-scan walk stays a few hundred lines. */
const PROGRESS_MS = 250;

export type ProgressReport = (done: number, total: number) => void;

/**
 * Long work answered as NDJSON (application/x-ndjson): `{"progress":{"done","total"}}` lines while
 * it runs, then one `{"result":…}` line, or one `{"error":…}` line in the API's error shape when
 * it fails after the answer began (the status, 200, is sent by then). Check what can be refused
 * before calling this, so that refusals keep their status.
 */
export function progressStream<T>(
  work: (progress: ProgressReport) => Promise<T>,
  onUnexpected: (error: unknown) => void,
): Readable {
  const out = new PassThrough();
  let last = 0;
  const progress: ProgressReport = (done, total) => {
    const now = Date.now();
    if (now - last < PROGRESS_MS && done < total) return;
    last = now;
    out.write(`${JSON.stringify({ progress: { done, total } })}\n`);
  };
  work(progress).then(
    (result) => out.end(`${JSON.stringify({ result })}\n`),
    (error: unknown) => {
      const known = error instanceof DomainError ? error : undefined;
      if (!known) onUnexpected(error);
      const code = known?.code ?? 'internal';
      const body = {
        status: ERROR_STATUS[code],
        code,
        message: known?.message ?? 'internal error; the server log has the details',
        details: known?.details ?? [],
      };
      out.end(`${JSON.stringify({ error: body })}\n`);
    },
  );
  return out;
}
