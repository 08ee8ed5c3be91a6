import { parseArgs } from 'node:util';
import type { Evidence } from '../../shared/api/evidence';
import { fields, printJson } from '../output';
import { breakdownText, count, timelineBlock, violationsBlock } from '../scan-format';
import { EXIT, UsageError } from '../usage-error';
import { CLIENT_OPTIONS, clientFrom } from './client-flags';
import { evidenceHelp } from './help';

/** Enough to see how a scan went without scrolling past thousands of requests. */
const TIMELINE_PREVIEW = 50;

export async function evidenceCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    options: { ...CLIENT_OPTIONS, types: { type: 'string' }, all: { type: 'boolean', default: false } },
    allowPositionals: true,
  });
  const [scanId, extra] = positionals;
  if (scanId === undefined) throw new UsageError(`evidence: missing SCAN_ID\n${evidenceHelp}`);
  if (extra !== undefined) throw new UsageError(`evidence: unexpected argument "${extra}"\n${evidenceHelp}`);
  // The server names the valid types when it refuses one; checking here would copy its list.
  const query = values.types === undefined ? '' : `?types=${encodeURIComponent(values.types)}`;
  const response = await clientFrom(values).request<Evidence>(
    'GET',
    `/v1/scans/${encodeURIComponent(scanId)}/evidence${query}`,
  );
  if (values.json) {
    printJson(response);
    return EXIT.ok;
  }
  const { evidence } = response;
  const blocks = [
    fields([
      ['scan', response.scan_id],
      ['requests', count(evidence.request_count)],
      ['total tokens', count(evidence.total_tokens)],
      ...(evidence.token_breakdown
        ? [['token breakdown', breakdownText(evidence.token_breakdown)] as [string, string]]
        : []),
    ]),
  ];
  if (evidence.violations) blocks.push(violationsBlock(evidence.violations));
  if (evidence.timeline) blocks.push(timelineBlock(evidence.timeline, values.all ? Infinity : TIMELINE_PREVIEW));
  process.stdout.write(`${blocks.join('\n\n')}\n`);
  return EXIT.ok;
}
