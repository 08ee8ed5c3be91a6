import { parseArgs } from 'node:util';
import { checkTarget, saveZipResponse } from '../file-download';
import { printJson, writeOut } from '../output';
import { sizeText } from '../package-format';
import { EXIT, UsageError } from '../usage-error';
import { CLIENT_OPTIONS, clientFrom } from './client-flags';
import { exportHelp } from './help';

export async function exportCommand(args: string[]): Promise<number> {
  const { values, positionals: scanIds } = parseArgs({
    args,
    options: {
      ...CLIENT_OPTIONS,
      out: { type: 'string', short: 'o' },
      force: { type: 'boolean', default: false },
    },
    allowPositionals: true,
  });
  if (values.out === undefined) throw new UsageError(`export: missing --out FILE.zip\n${exportHelp}`);
  if (scanIds.length === 0) throw new UsageError(`export: missing SCAN_ID\n${exportHelp}`);
  await checkTarget(values.out, values.force);
  const response = await clientFrom(values).response('POST', '/v1/evidence/exports', { scan_ids: scanIds });
  const bytes = await saveZipResponse(response, values.out, values.force);
  if (values.json) printJson({ path: values.out, bytes, scans: scanIds });
  else writeOut(`saved ${values.out} (${sizeText(bytes)})\n`);
  return EXIT.ok;
}
