import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import type { Scan, SubmitScanBody } from '../../shared/api/scans';
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

  const scan = await clientFrom(values).request<Scan>('POST', '/v1/scans', body);
  if (values.json) printJson(scan);
  else {
    writeOut(`submitted ${terminalSafe(`${scan.id}: ${scan.tool} ${scan.action}`)}, ${count(scan.tokens)} tokens\n`);
    writeOut(`${violationsBlock(scan.violations, entryLabel, { total: scan.violation_count, scanId: scan.id })}\n`);
  }
  return scan.violations.length > 0 ? EXIT.violations : EXIT.ok;
}
