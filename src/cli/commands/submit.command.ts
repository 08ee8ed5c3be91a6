import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import type { Scan, SubmitScanBody } from '../../shared/api/scans';
import { brokeOff, ServerError, type ApiClient } from '../client';
import { printJson, writeOut } from '../output';
import { terminalSafe } from '../terminal-text';
import { count, violationsBlock, type EntryLabel } from '../scan-format';
import { linesInServerOrder, parseBreakdown, parseCount, parseTimelineJsonl, timelineTokens } from '../scan-input';
import { EXIT, UsageError } from '../usage-error';
import { CLIENT_OPTIONS, clientFrom } from './client-flags';
import { submitHelp } from './help';

function readTimelineFile(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    throw new UsageError(`--timeline: cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
}

/** Sends of one submit at most, the first included; waits 250 ms, then 500 ms between them. */
export const SUBMIT_ATTEMPTS = 3;
const RETRY_STATUSES = new Set([502, 503, 504]);

/**
 * Posts the scan with `key` as its Idempotency-Key (docs/contract/api.md#idempotent-submit), and
 * sends it again with the same key when the answer was lost on the way (the connection broke
 * after it was made, or a gateway answered 502–504): the server then answers the scan the first
 * send stored, never a second one. A refused connection is not retried (nothing was sent).
 */
async function postScan(client: ApiClient, body: SubmitScanBody, key: string): Promise<Scan> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await client.request<Scan>('POST', '/v1/scans', body, { 'Idempotency-Key': key });
    } catch (error) {
      const lost = brokeOff(error) || (error instanceof ServerError && RETRY_STATUSES.has(error.status));
      if (!lost || attempt >= SUBMIT_ATTEMPTS) throw error;
      await sleep(250 * 2 ** (attempt - 1));
    }
  }
}

export async function submitCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    options: {
      ...CLIENT_OPTIONS,
      tool: { type: 'string' },
      action: { type: 'string' },
      tokens: { type: 'string' },
      org: { type: 'string' },
      timeline: { type: 'string' },
      breakdown: { type: 'string' },
      'idempotency-key': { type: 'string' },
    },
    allowPositionals: true,
  });
  if (positionals.length > 0) throw new UsageError(`submit: unexpected argument "${positionals[0]}"\n${submitHelp}`);
  const missing = [
    values.tool === undefined ? '--tool' : '',
    values.action === undefined ? '--action' : '',
    values.tokens === undefined && values.timeline === undefined ? '--tokens (or --timeline)' : '',
  ].filter((flag) => flag !== '');
  if (missing.length > 0) throw new UsageError(`submit: missing ${missing.join(', ')}\n${submitHelp}`);

  const body: SubmitScanBody = {
    tool: values.tool ?? '',
    action: values.action ?? '',
    tokens: values.tokens === undefined ? 0 : parseCount(values.tokens, '--tokens'),
  };
  if (values.org !== undefined) body.organization_id = values.org;
  if (values.breakdown !== undefined) body.token_breakdown = parseBreakdown(values.breakdown);

  let entryLabel: EntryLabel | undefined;
  if (values.timeline !== undefined) {
    const file = values.timeline;
    const entries = parseTimelineJsonl(readTimelineFile(file), file);
    const sum = timelineTokens(entries, file);
    if (values.tokens !== undefined && body.tokens !== sum) {
      throw new UsageError(
        `--tokens ${count(body.tokens)} does not match ${file}, whose entries add up to ${count(sum)}; leave --tokens out to use the sum`,
      );
    }
    body.tokens = sum;
    body.timeline = entries.map(({ entry }) => entry);
    const lines = linesInServerOrder(entries);
    entryLabel = (index) =>
      lines[index] === undefined ? `entry ${index}` : `entry ${index} (${file} line ${lines[index]})`;
  }

  // A key of this invocation's own unless one is given (a script repeating the command passes the
  // same one each time): its own retries never store the scan twice.
  const key = values['idempotency-key'] ?? `cli:${randomUUID()}`;
  const scan = await postScan(clientFrom(values), body, key);
  if (values.json) printJson(scan);
  else {
    writeOut(`submitted ${terminalSafe(`${scan.id}: ${scan.tool} ${scan.action}`)}, ${count(scan.tokens)} tokens\n`);
    writeOut(`${violationsBlock(scan.violations, entryLabel, { total: scan.violation_count, scanId: scan.id })}\n`);
  }
  return scan.violations.length > 0 ? EXIT.violations : EXIT.ok;
}
