import { parseArgs } from 'node:util';
import type { RemoteList } from '../../shared/api/remotes';
import type { SyncEvent, SyncSummary } from '../../shared/api/sync';
import { ndjsonLines } from '../../shared/ndjson-lines';
import type { ApiClient } from '../client';
import { ServerError, TransferError } from '../client-errors';
import { printJson, writeErr, writeOut } from '../output';
import { syncExitCode, syncProgressText, syncSummaryText } from '../sync-format';
import { UsageError } from '../usage-error';
import { CLIENT_OPTIONS, clientFrom } from './client-flags';
import { syncHelp } from './help';

/** Where progress is drawn: process.stderr, redrawn in place on a terminal, nothing in a pipe. */
interface ProgressTarget {
  isTTY?: boolean | undefined;
  write(text: string): unknown;
}

/** Runs (or joins) one remote's sync and answers its summary; progress on `progress` meanwhile. */
async function syncOne(client: ApiClient, name: string, progress: ProgressTarget): Promise<SyncSummary> {
  const response = await client.response('POST', `/v1/remotes/${encodeURIComponent(name)}/sync`);
  if (!response.body) throw new TransferError(`the server sent no progress for ${name}`);
  let drawn = false;
  try {
    for await (const line of ndjsonLines(response.body)) {
      const event = line as SyncEvent;
      if (event.type === 'summary') return event.summary;
      if (progress.isTTY) {
        progress.write(`\r${name} ${syncProgressText(event)}\x1b[K`);
        drawn = true;
      }
    }
  } finally {
    if (drawn) progress.write('\r\x1b[2K');
  }
  throw new TransferError(`the server stopped reporting the sync of ${name} before its summary`);
}

/** A remote that could not sync at all (another process runs it): a summary saying so. */
function refusedSummary(name: string, error: ServerError): SyncSummary {
  const now = new Date().toISOString();
  return {
    remote: name,
    outcome: 'partial',
    started_at: now,
    finished_at: now,
    pulled: { new: 0, changed: 0, unchanged: 0, bytes: 0 },
    pushed: { sent: 0, waiting: 0 },
    gone: 0,
    errors: [{ what: 'sync', why: error.message }],
  };
}

export async function syncCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({ args, options: CLIENT_OPTIONS, allowPositionals: true });
  if (positionals.length > 1) throw new UsageError(`sync: one remote at most\n${syncHelp}`);
  const client = clientFrom(values);
  const names =
    positionals.length === 1
      ? positionals
      : (await client.request<RemoteList>('GET', '/v1/remotes')).remotes.map((r) => r.name);
  if (names.length === 0) {
    writeErr('no remotes to sync: add one with `scandesk remote add NAME URL --token T`\n');
    if (values.json) printJson({ remotes: [] });
    return 0;
  }
  const summaries: SyncSummary[] = [];
  for (const name of names) {
    let summary: SyncSummary;
    try {
      summary = await syncOne(client, name, process.stderr);
    } catch (error) {
      // Busy elsewhere: the other remotes still sync. Anything else (unknown name, the local server
      // gone) ends the command with its message.
      if (!(error instanceof ServerError && error.status === 409)) throw error;
      summary = refusedSummary(name, error);
    }
    summaries.push(summary);
    if (!values.json) writeOut(`${syncSummaryText(summary)}\n`);
  }
  if (values.json) printJson({ remotes: summaries });
  return syncExitCode(summaries.map((summary) => summary.outcome));
}
