import { describe, expect, it } from 'vitest';
import {
  formatBytes,
  importResultText,
  importSummaryText,
  importTotals,
  progressLine,
  sizeText,
  type ImportFileResult,
} from '../../../src/cli/package-format';

describe('formatBytes and sizeText', () => {
  it('keeps three significant digits in binary units', () => {
    expect(formatBytes(0)).toBe('0 B');
    expect(formatBytes(1023)).toBe('1023 B');
    expect(formatBytes(1024)).toBe('1.00 KiB');
    expect(formatBytes(1536)).toBe('1.50 KiB');
    expect(formatBytes(10 * 1024 + 512)).toBe('10.5 KiB');
    expect(formatBytes(500 * 1024)).toBe('500 KiB');
    expect(formatBytes(12.3 * 1024 * 1024)).toBe('12.3 MiB');
    expect(formatBytes(3 * 1024 ** 3)).toBe('3.00 GiB');
  });

  it('gives the exact count too, for scripts and for comparing with ls', () => {
    expect(sizeText(512)).toBe('512 bytes');
    expect(sizeText(1_234_567)).toBe('1.18 MiB, 1,234,567 bytes');
  });
});

describe('progressLine', () => {
  const MiB = 1024 * 1024;

  it('shows name, bar, percent and amounts', () => {
    expect(progressLine('big.zip', 5 * MiB, 10 * MiB, 80)).toBe(
      'big.zip  [###############...............]   50%  5.00 MiB / 10.0 MiB',
    );
    expect(progressLine('big.zip', 0, 10 * MiB, 80)).toContain('[..............................]    0%');
    expect(progressLine('big.zip', 10 * MiB, 10 * MiB, 80)).toContain('[##############################]  100%');
  });

  it('never exceeds the terminal width, shortening the name from the left', () => {
    const name = `/very/long/path/${'x'.repeat(100)}/package.zip`;
    for (const columns of [40, 60, 80, 120]) {
      const line = progressLine(name, 3 * MiB, 7 * MiB, columns);
      expect(line.length).toBeLessThan(columns);
      expect(line).toContain('42%');
    }
    expect(progressLine(name, 3 * MiB, 7 * MiB, 80)).toMatch(/^…x+\/package\.zip {2}\[/);
  });

  it('treats an empty total as done rather than dividing by zero', () => {
    expect(progressLine('a.zip', 0, 0)).toContain('100%');
  });
});

describe('import results', () => {
  const imported: ImportFileResult = {
    file: 'a.zip',
    status: 'imported',
    imported: ['s1', 'scan_DERIVED'],
    unchanged: ['s3'],
    ids: { s1: 's1', theirs: 'scan_DERIVED', s3: 's3' },
  };
  const one: ImportFileResult = {
    file: 'b.zip',
    status: 'imported',
    imported: ['s4'],
    unchanged: [],
    ids: { s4: 's4' },
  };
  const refused: ImportFileResult = {
    file: 'evil.zip',
    status: 'refused',
    error: {
      status: 400,
      code: 'invalid_package',
      message: '../x: the name contains ".."',
      details: [{ entry: '../x', message: 'the name contains ".."' }],
    },
  };
  const notZip: ImportFileResult = {
    file: 'text.zip',
    status: 'refused',
    error: {
      status: 400,
      code: 'invalid_package',
      message: 'not a ZIP archive',
      details: [{ message: 'not a ZIP archive' }],
    },
  };
  const failed: ImportFileResult = {
    file: 'gone.zip',
    status: 'failed',
    error: { message: 'cannot read it (no such file)' },
  };

  it('prints one line per file, then each scan by its stored id, or the reasons of a refusal, each naming its entry', () => {
    expect(importResultText(imported).split('\n')).toEqual([
      'a.zip: imported 2 scans, 1 unchanged',
      '  imported s1',
      '  imported scan_DERIVED (package id theirs)',
      '  unchanged s3',
    ]);
    expect(importResultText(one)).toBe('b.zip: imported 1 scan, 0 unchanged\n  imported s4');
    expect(importResultText(refused)).toBe(
      'evil.zip: refused — ../x: the name contains ".."\n  - ../x: the name contains ".."',
    );
    expect(importResultText(failed)).toBe('gone.zip: failed — cannot read it (no such file)');
  });

  it('does not repeat a detail that names nothing and only says the message again', () => {
    expect(importResultText(notZip)).toBe('text.zip: refused — not a ZIP archive');
    const withField: ImportFileResult = {
      ...notZip,
      error: { ...notZip.error, details: [{ field: 'body', message: 'not a ZIP archive' }, { message: 'other' }] },
    } as ImportFileResult;
    expect(importResultText(withField).split('\n')).toEqual([
      'text.zip: refused — not a ZIP archive',
      '  - body: not a ZIP archive',
      '  - other',
    ]);
  });

  it('sums the files into one closing line; failures appear only when there are some', () => {
    const totals = importTotals([imported, one, refused, notZip, failed]);
    expect(totals).toEqual({ files: 5, imported: 3, unchanged: 1, refused: 2, failed: 1 });
    expect(importSummaryText(totals)).toBe('5 files: 3 scans imported, 1 unchanged, 2 files refused, 1 file failed');
    expect(importSummaryText(importTotals([one]))).toBe('1 file: 1 scan imported, 0 unchanged, 0 files refused');
  });
});
