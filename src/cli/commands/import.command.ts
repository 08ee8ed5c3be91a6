import { open, type FileHandle } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import type { ImportResult } from '../../shared/api/evidence';
import type { ApiClient } from '../client';
import { ServerError, TransferError } from '../client-errors';
import { printJson, writeOut } from '../output';
import { importResultText, importSummaryText, importTotals, type ImportFileResult } from '../package-format';
import { ProgressBar } from '../progress-bar';
import { EXIT, UsageError } from '../usage-error';
import { CLIENT_OPTIONS, clientFrom } from './client-flags';
import { importHelp } from './help';

function fsReason(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return 'no such file';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  return code ?? String(error);
}

/** Yields the file's chunks as fetch pulls them, so progress follows the bytes actually taken. */
async function* counted(source: AsyncIterable<Buffer>, bar: ProgressBar): AsyncGenerator<Uint8Array> {
  for await (const chunk of source) {
    bar.advance(chunk.length);
    yield chunk;
  }
}

/** Uploads one file, streamed from disk; every outcome except an unreachable server is a result. */
async function importFile(client: ApiClient, file: string): Promise<ImportFileResult> {
  let handle: FileHandle;
  try {
    handle = await open(file, 'r');
  } catch (error) {
    return { file, status: 'failed', error: { message: `cannot read it (${fsReason(error)})` } };
  }
  try {
    const info = await handle.stat();
    if (!info.isFile()) return { file, status: 'failed', error: { message: 'not a regular file' } };
    const progress = new ProgressBar(process.stderr, file, info.size);
    try {
      const result = await client.upload<ImportResult>(
        'POST',
        '/v1/evidence/imports',
        counted(handle.createReadStream({ autoClose: false }), progress),
        'application/zip',
        info.size,
      );
      const { imported, unchanged, ids } = result;
      return { file, status: 'imported', imported, unchanged, ids };
    } finally {
      progress.finish();
    }
  } catch (error) {
    if (error instanceof ServerError) {
      const { status, code, message, details } = error;
      return { file, status: 'refused', error: { status, code, message, details } };
    }
    if (error instanceof TransferError) return { file, status: 'failed', error: { message: error.message } };
    // Unreachable server, or a bug: no point trying the next file, the error says why.
    throw error;
  } finally {
    await handle.close().catch(() => undefined);
  }
}

export async function importCommand(args: string[]): Promise<number> {
  const { values, positionals: files } = parseArgs({ args, options: CLIENT_OPTIONS, allowPositionals: true });
  if (files.length === 0) throw new UsageError(`import: missing FILE.zip\n${importHelp}`);
  const client = clientFrom(values);
  const results: ImportFileResult[] = [];
  for (const file of files) {
    const result = await importFile(client, file);
    results.push(result);
    // As each file finishes: a long batch shows its progress, and an abort keeps what was done.
    if (!values.json) writeOut(`${importResultText(result)}\n`);
  }
  const totals = importTotals(results);
  if (values.json) printJson({ files: results, totals });
  else writeOut(`${importSummaryText(totals)}\n`);
  return totals.refused + totals.failed > 0 ? EXIT.failed : EXIT.ok;
}
