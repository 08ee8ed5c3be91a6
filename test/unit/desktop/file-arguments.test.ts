import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { evidenceFileFromArgument, evidenceFilesFromArgv } from '../../../src/main/desktop/file-arguments';

describe('evidence files on a command line (argv on Windows/Linux, second instances)', () => {
  let dir: string;
  let a: string;
  let b: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'scandesk-argv-'));
    a = join(dir, 'a.zip');
    b = join(dir, 'B.ZIP');
    writeFileSync(a, 'x');
    writeFileSync(b, 'x');
    writeFileSync(join(dir, 'notes.txt'), 'x');
    mkdirSync(join(dir, 'folder.zip'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('finds the ZIPs of a packaged launch, relative ones against the launch directory', () => {
    expect(evidenceFilesFromArgv(['/opt/Scandesk/scandesk', a, 'B.ZIP'], { cwd: dir })).toEqual([a, b]);
  });

  it('ignores the executable, the app path of `electron .`, flags and their values', () => {
    const argv = ['/usr/bin/electron', '.', '--inspect=9229', '--no-sandbox', '-psn_0_1234', '--flag=a.zip', a];
    expect(evidenceFilesFromArgv(argv, { cwd: dir })).toEqual([a]);
    expect(evidenceFilesFromArgv(['electron', 'out/main/index.js', a], { cwd: dir })).toEqual([a]);
  });

  it('ignores missing files, directories, other extensions and duplicates', () => {
    const argv = ['app', join(dir, 'missing.zip'), join(dir, 'folder.zip'), join(dir, 'notes.txt'), a, a];
    expect(evidenceFilesFromArgv(argv, { cwd: dir })).toEqual([a]);
  });

  it('takes every argument after -- as a path', () => {
    const dashed = join(dir, '-dashed.zip');
    writeFileSync(dashed, 'x');
    expect(evidenceFilesFromArgv(['app', '--', '-dashed.zip'], { cwd: dir })).toEqual([dashed]);
  });

  it('accepts file:// URLs (Linux %U) and refuses other schemes', () => {
    expect(evidenceFilesFromArgv(['app', pathToFileURL(a).href], { cwd: dir })).toEqual([a]);
    expect(evidenceFilesFromArgv(['app', 'https://example.com/a.zip', 'scandesk://a.zip'], { cwd: dir })).toEqual([]);
  });

  it('reads a macOS open-file path the same way', () => {
    expect(evidenceFileFromArgument(a, { cwd: '/' })).toBe(a);
    expect(evidenceFileFromArgument(join(dir, 'notes.txt'), { cwd: '/' })).toBeNull();
  });

  it('uses the injected file check (Windows drive paths are paths, not schemes)', () => {
    const seen: string[] = [];
    const isFile = (path: string): boolean => {
      seen.push(path);
      return true;
    };
    expect(evidenceFileFromArgument('C:\\Users\\me\\evidence.zip', { cwd: '/', isFile })).not.toBeNull();
    expect(seen).toHaveLength(1);
  });
});
