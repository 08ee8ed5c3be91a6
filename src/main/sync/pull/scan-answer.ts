import { SYNC_ANSWER_MAX_BYTES, SYNC_LINE_MAX_BYTES } from '../../../shared/api/sync';
import { packageError } from '../../evidence/import/import-errors';
import { RemoteBroken } from '../client/remote-errors';
import { lineName, readScanLine, type ScanLine } from './scan-line';

// A `POST /v1/sync/scans` answer read as its bytes arrive, bounded: each line at most
// SYNC_LINE_MAX_BYTES, the whole at most `maxBytes` (RemoteBroken "larger than", so that the page
// is asked again in halves), exactly one line per asked id in the order asked. A line that is not
// what it must be refuses the answer (invalid_package); an answer that ends before its last line
// (a cut connection) is RemoteBroken: its scans are asked again, never skipped.

const NEWLINE = 0x0a;

export interface AnswerOptions {
  /** The answer's most bytes; SYNC_ANSWER_MAX_BYTES at most. */
  maxBytes: number;
  onBytes?: (bytes: number) => void;
}

/** The answer's lines, one per id of `asked`, read from `body` and checked (scan-line.ts). */
export async function readScanAnswer(
  body: AsyncIterable<Buffer>,
  asked: readonly string[],
  options: AnswerOptions,
): Promise<ScanLine[]> {
  const maxBytes = Math.min(options.maxBytes, SYNC_ANSWER_MAX_BYTES);
  const lines: ScanLine[] = [];
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let bytes = 0;
  const take = (bytesOfLine: Buffer): void => {
    const number = lines.length + 1;
    if (lines.length >= asked.length) {
      throw packageError({ entry: lineName(number), problems: [`more lines than the ${asked.length} scans asked`] });
    }
    lines.push(readScanLine(bytesOfLine, number, asked[lines.length]!));
  };
  for await (const chunk of body) {
    bytes += chunk.length;
    if (bytes > maxBytes)
      throw new RemoteBroken(`the remote's answer to /v1/sync/scans is larger than ${maxBytes} bytes`);
    options.onBytes?.(bytes);
    let from = 0;
    for (let newline = chunk.indexOf(NEWLINE); newline >= 0; newline = chunk.indexOf(NEWLINE, from)) {
      const part = chunk.subarray(from, newline);
      if (pendingBytes + part.length + 1 > SYNC_LINE_MAX_BYTES) throw lineTooLong(lines.length + 1);
      take(pending.length === 0 ? part : Buffer.concat([...pending, part]));
      pending = [];
      pendingBytes = 0;
      from = newline + 1;
    }
    if (from < chunk.length) {
      pendingBytes += chunk.length - from;
      if (pendingBytes + 1 > SYNC_LINE_MAX_BYTES) throw lineTooLong(lines.length + 1);
      pending.push(chunk.subarray(from));
    }
  }
  if (pendingBytes > 0 || lines.length < asked.length) {
    throw new RemoteBroken(
      `the remote's answer to /v1/sync/scans ended after ${lines.length} of ${asked.length} lines`,
    );
  }
  return lines;
}

const lineTooLong = (line: number) =>
  packageError({ entry: lineName(line), problems: [`longer than ${SYNC_LINE_MAX_BYTES} bytes`] });
