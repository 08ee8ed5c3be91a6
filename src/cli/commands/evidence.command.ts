import { parseArgs } from 'node:util';
import type { Evidence } from '../../shared/api/evidence';
import { SCAN_VIOLATIONS_INLINE_MAX } from '../../shared/api/scans';
import { checkTarget, saveZipResponse } from '../file-download';
import { fields, printJson, writeOut } from '../output';
import { sizeText } from '../package-format';
import { breakdownText, count, timelineBlock, violationsBlock } from '../scan-format';
import { EXIT, UsageError } from '../usage-error';
import { CLIENT_OPTIONS, clientFrom } from './client-flags';
import { evidenceHelp } from './help';

/** Enough to see how a scan went without scrolling past thousands of requests. */
const TIMELINE_PREVIEW = 50;

/** The default file name, as the server's Content-Disposition names it; odd id characters cannot make a path. */
export const downloadFileName = (scanId: string): string =>
  `scandesk-evidence-${scanId.replace(/[^A-Za-z0-9_-]/g, '_')}.zip`;

const OPTIONS = {
  ...CLIENT_OPTIONS,
  types: { type: 'string' },
  all: { type: 'boolean', default: false },
  out: { type: 'string', short: 'o' },
  force: { type: 'boolean', default: false },
} as const;

/** Flags that belong to the other form; parsed together so that flags may come before the subcommand. */
const SHOW_ONLY = ['types', 'all'] as const;
const DOWNLOAD_ONLY = ['out', 'force'] as const;

function refuseFlags(values: Record<string, unknown>, names: readonly string[], form: string): void {
  // Booleans default to false, so "given" means set to something else.
  const given = names.find((name) => values[name] !== undefined && values[name] !== false);
  if (given !== undefined) throw new UsageError(`${form}: --${given} does not apply here\n${evidenceHelp}`);
}

export async function evidenceCommand(args: string[]): Promise<number> {
  const { values, positionals, tokens } = parseArgs({ args, options: OPTIONS, allowPositionals: true, tokens: true });
  // `download` is the subcommand wherever it stands among the flags, so `evidence download ID` can
  // never mean anything else. Ids are opaque (an imported one could read "download"): after `--`
  // it is taken as an id, `scandesk evidence -- download`.
  const terminator = tokens.find((token) => token.kind === 'option-terminator')?.index ?? Infinity;
  const first = tokens.find((token) => token.kind === 'positional');
  const download = first !== undefined && first.value === 'download' && first.index < terminator;
  const [scanId, extra] = download ? positionals.slice(1) : positionals;
  const form = download ? 'evidence download' : 'evidence';
  if (scanId === undefined) throw new UsageError(`${form}: missing SCAN_ID\n${evidenceHelp}`);
  if (extra !== undefined) throw new UsageError(`${form}: unexpected argument "${extra}"\n${evidenceHelp}`);
  refuseFlags(values, download ? SHOW_ONLY : DOWNLOAD_ONLY, form);
  const client = clientFrom(values);

  if (download) {
    const target = values.out ?? downloadFileName(scanId);
    await checkTarget(target, values.force);
    const response = await client.response('GET', `/v1/scans/${encodeURIComponent(scanId)}/evidence/download`);
    const bytes = await saveZipResponse(response, target, values.force);
    if (values.json) printJson({ path: target, bytes, scans: [scanId] });
    else writeOut(`saved ${target} (${sizeText(bytes)})\n`);
    return EXIT.ok;
  }

  // The server names the valid types when it refuses one; checking here would copy its list.
  const query = values.types === undefined ? '' : `?types=${encodeURIComponent(values.types)}`;
  const response = await client.request<Evidence>('GET', `/v1/scans/${encodeURIComponent(scanId)}/evidence${query}`);
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
  if (evidence.violations) {
    // As many as `scans get` lists: a scan may hold a violation per entry, and a terminal is no place for 100,000.
    const shown = values.all ? evidence.violations : evidence.violations.slice(0, SCAN_VIOLATIONS_INLINE_MAX);
    blocks.push(violationsBlock(shown, undefined, { total: evidence.violations.length, scanId: response.scan_id }));
  }
  if (evidence.timeline) blocks.push(timelineBlock(evidence.timeline, values.all ? Infinity : TIMELINE_PREVIEW));
  writeOut(`${blocks.join('\n\n')}\n`);
  return EXIT.ok;
}
