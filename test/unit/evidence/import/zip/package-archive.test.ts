import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { lineError } from '../../../../../src/main/evidence/import/import-errors';
import { DEFAULT_IMPORT_LIMITS, type ImportLimits } from '../../../../../src/main/evidence/import/import-limits';
import { PackageArchive } from '../../../../../src/main/evidence/import/zip/package-archive';
import { JsonlLineError, LineRun } from '../../../../../src/main/evidence/jsonl/line-splitter';
import { buildZip } from '../../../../helpers/zip-builder';
import { makeRng } from '../../../../helpers/reliability';

const dir = mkdtempSync(join(tmpdir(), 'scandesk-lines-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const NAME = 'timeline.jsonl';
let files = 0;

/** Every line of the entry, or the message of the error that stopped the reading. */
async function readAll(
  data: Buffer,
  method: 0 | 8,
  limits: ImportLimits = DEFAULT_IMPORT_LIMITS,
): Promise<{ lines: string[]; batches: number } | { error: string }> {
  const path = join(dir, `${(files += 1)}.zip`);
  writeFileSync(path, buildZip([{ name: NAME, data, method }]));
  const archive = await PackageArchive.open(path, limits);
  const lines: string[] = [];
  let batches = 0;
  try {
    for await (const run of archive.readLineRuns(NAME, { inflated: 0 })) {
      batches += 1;
      run.forEach((bytes, start, end, line) => lines.push(LineRun.text(bytes, start, end, line)));
    }
    return { lines, batches };
  } catch (error) {
    return { error: (error instanceof JsonlLineError ? lineError(error, NAME) : (error as Error)).message };
  } finally {
    archive.close();
  }
}

/**
 * What a line-by-line reading gives, each line decoded on its own (a final CR dropped, a BOM
 * dropped by the decoder), stopping at the first line that is not UTF-8.
 */
function reference(data: Buffer): { lines: string[] } | { error: string } {
  const pieces: Buffer[] = [];
  let start = 0;
  for (let newline = data.indexOf(0x0a); newline !== -1; newline = data.indexOf(0x0a, start)) {
    pieces.push(data.subarray(start, newline));
    start = newline + 1;
  }
  if (start < data.length) pieces.push(data.subarray(start));
  const lines: string[] = [];
  for (const [i, piece] of pieces.entries()) {
    const bytes = piece[piece.length - 1] === 0x0d ? piece.subarray(0, -1) : piece;
    try {
      lines.push(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
    } catch {
      return { error: `${NAME} line ${i + 1}: not UTF-8` };
    }
  }
  return { lines };
}

/** Deterministic draws in [0, 1). */
const random = (seed: number): (() => number) => makeRng(seed).next;

const PIECES = ['{"action":"é"}', 'ascii', '日本語', '🙂', '\r', '\uFEFF', '', 'x'.repeat(300)];

/** ~600 KB of lines with multi-byte characters, CRs and BOMs: chunk boundaries fall inside them. */
function randomText(seed: number): Buffer {
  const next = random(seed);
  const lines: string[] = [];
  for (let size = 0; size < 600_000;) {
    let line = '';
    const parts = 1 + Math.floor(next() * 6);
    for (let i = 0; i < parts; i++) line += PIECES[Math.floor(next() * PIECES.length)];
    lines.push(line);
    size += Buffer.byteLength(line) + 1;
  }
  return Buffer.from(lines.join(next() < 0.5 ? '\n' : '\r\n') + (next() < 0.5 ? '\n' : ''));
}

describe('PackageArchive.readLineRuns', () => {
  it('gives the lines a line-by-line decoding gives, across chunk boundaries, stored and deflated', async () => {
    for (let seed = 1; seed <= 6; seed++) {
      const data = randomText(seed);
      for (const method of [0, 8] as const) {
        const read = await readAll(data, method);
        expect('lines' in read && read.batches).toBeGreaterThan(1);
        expect(read).toMatchObject(reference(data));
      }
    }
  });

  it('drops a final CR and a leading BOM per line, and keeps a BOM elsewhere', async () => {
    const data = Buffer.from('\uFEFFa\r\n\uFEFF\uFEFFb\nc\uFEFF\r\n\r\n\uFEFF\r\nlast\r');
    expect(await readAll(data, 8)).toMatchObject({ lines: ['a', '\uFEFFb', 'c\uFEFF', '', '', 'last'] });
    expect(await readAll(data, 8)).toMatchObject(reference(data));
  });

  it('names the first line that is not UTF-8, in any chunk', async () => {
    const good = randomText(7);
    for (const at of [0, 5_000, good.length - 2]) {
      for (const bad of [[0xff], [0xe2, 0x82], [0xed, 0xa0, 0x80], [0xc0, 0xaf]]) {
        const data = Buffer.concat([good.subarray(0, at), Buffer.from(bad), good.subarray(at)]);
        const expected = reference(data);
        expect(expected).toHaveProperty('error');
        for (const method of [0, 8] as const) expect(await readAll(data, method)).toEqual(expected);
      }
    }
  });

  it('refuses a line longer than the limit, unfinished in its chunk or whole in one', async () => {
    const limits = { ...DEFAULT_IMPORT_LIMITS, lineBytes: 1000 };
    const long = { error: `${NAME} line 3: longer than 1000 bytes` };
    expect(await readAll(Buffer.from(`a\nb\n${'x'.repeat(100_000)}\nc\n`), 8, limits)).toEqual(long);
    expect(await readAll(Buffer.from(`a\nb\n${'x'.repeat(1001)}\nc\n`), 8, limits)).toEqual(long);
    // Bytes, not characters: 334 three-byte characters are 1002 bytes.
    expect(await readAll(Buffer.from(`a\nb\n${'語'.repeat(334)}\nc\n`), 8, limits)).toEqual(long);
    expect(await readAll(Buffer.from(`a\nb\n${'語'.repeat(333)}\nc\n`), 8, limits)).toMatchObject({
      lines: ['a', 'b', '語'.repeat(333), 'c'],
    });
  });
});
