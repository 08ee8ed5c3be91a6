/**
 * Evidence packages through the CLI (`evidence download`, `export`, `import`) against one real
 * `scandesk serve`, plus a second one on an empty data directory for the round trip. Every
 * package written is checked by tools that share no code with ours: Info-ZIP's unzip, Python's
 * zipfile and 7-Zip. Tests run in order: later ones use the packages earlier ones wrote.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer, type Server } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Evidence } from '../../../src/shared/api/evidence';
import type { Scan } from '../../../src/shared/api/scans';
import type { Manifest } from '../../../src/shared/evidence-package';
import {
  makeTempDir,
  runCli,
  serverFlags,
  startServe,
  type CliResult,
  type ServeProcess,
} from '../../helpers/serve-process';
import { closedPort, expectExit, expectUsage, lines, stopServers } from '../../helpers/cli-output';
import { buildZip, unzip } from '../../helpers/zip-builder';
import { derivedScanId, derivedViolationId } from '../../../src/main/evidence/import/import-ids';

const SEVEN_ZIP = '/usr/bin/7z';
const HAS_7Z = existsSync(SEVEN_ZIP);
const SAVED = /^saved (.+) \((?:[\d.]+ [KMG]iB, )?([\d,]+) bytes\)$/;
const UNREACHABLE =
  /^error: cannot reach the Scandesk server at http:\/\/127\.0\.0\.1:\d+ \(.+\); is `scandesk serve` running\?$/;

/** One `error:` sentence on stderr, exit 1, nothing on stdout. */
function expectOneSentence(result: CliResult, message: RegExp): void {
  expectExit(result, 1);
  expect(result.stdout).toBe('');
  expect(lines(result.stderr)).toHaveLength(1);
  expect(lines(result.stderr)[0]).toMatch(message);
}

/** Files a failed or refused write might leave behind: the temp files are hidden `.NAME.HEX.part`. */
function leftovers(dir: string): string[] {
  return readdirSync(dir).filter((name) => name.endsWith('.part'));
}

const readZip = (file: string): Promise<Map<string, Buffer>> => unzip(readFileSync(file));

const jsonOf = <T>(files: Map<string, Buffer>, name: string): T => {
  const data = files.get(name);
  if (!data) throw new Error(`${name} is missing; entries: ${[...files.keys()].join(', ')}`);
  return JSON.parse(data.toString('utf8')) as T;
};

/** Info-ZIP: every entry's CRC, and the archive structure. */
function checkWithUnzip(file: string): void {
  const result = spawnSync('/usr/bin/unzip', ['-t', file], { encoding: 'utf8' });
  expect(result.status, result.stdout + result.stderr).toBe(0);
  expect(result.stdout).toContain('No errors detected');
}

/**
 * Python's zipfile: testzip() (CRCs), then the manifest against the bytes: every listed file is
 * there with its size and SHA-256, and nothing else is. Prints the manifest's scans for a cross-check.
 */
const PYTHON_CHECK = `
import hashlib, json, sys, zipfile
z = zipfile.ZipFile(sys.argv[1])
bad = z.testzip()
assert bad is None, "bad entry: %s" % bad
m = json.loads(z.read("manifest.json"))
assert m["format"] == "scandesk.evidence" and m["version"] == 1, m
listed = set()
for f in m["files"]:
    data = z.read(f["path"])
    assert len(data) == f["bytes"], (f["path"], len(data), f["bytes"])
    assert hashlib.sha256(data).hexdigest() == f["sha256"], f["path"]
    listed.add(f["path"])
assert set(z.namelist()) == listed | {"manifest.json"}, sorted(set(z.namelist()) ^ (listed | {"manifest.json"}))
assert all(i.compress_type == zipfile.ZIP_DEFLATED for i in z.infolist())
print(json.dumps({"scans": m["scans"], "files": len(m["files"])}))
`;

function checkWithPython(file: string): { scans: string[]; files: number } {
  const result = spawnSync('python3', ['-c', PYTHON_CHECK, file], { encoding: 'utf8' });
  expect(result.status, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as { scans: string[]; files: number };
}

function checkWith7z(file: string): void {
  const result = spawnSync(SEVEN_ZIP, ['t', file], { encoding: 'utf8' });
  expect(result.status, result.stdout + result.stderr).toBe(0);
  expect(result.stdout).toContain('Everything is Ok');
}

/** A tiny HTTP server standing in for a broken Scandesk server. */
async function fakeServer(handler: Parameters<typeof createHttpServer>[1]): Promise<{ url: string; server: Server }> {
  const server = createHttpServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  return { url: `http://127.0.0.1:${address.port}`, server };
}

describe('scandesk evidence download, export and import', () => {
  let server: ServeProcess;
  let second: ServeProcess | undefined;
  /** The second server's owner: whose derived ids the scans imported there get. */
  let secondOwner = '';
  let at: string[];
  let dir: string;
  /** In submission order: small, with violations, the 2,000-entry timeline. */
  const ids: string[] = [];
  /** Every package the CLI wrote; 7-Zip tests them all at the end. */
  const written: string[] = [];

  const cli = (...args: string[]): Promise<CliResult> => runCli([...args, ...at]);

  beforeAll(async () => {
    server = await startServe();
    at = serverFlags(server);
    dir = makeTempDir('scandesk-cli-packages-');
    writeFileSync(
      join(dir, 'long.jsonl'),
      Array.from({ length: 2000 }, (_, i) =>
        JSON.stringify({
          timestamp: new Date(Date.UTC(2026, 10, 20, 8, 0, 0, i * 250)).toISOString(),
          action: ['read', 'edit', 'chat', 'search'][i % 4],
          tokens: (i * 37) % 500,
        }),
      ).join('\n'),
    );
    writeFileSync(
      join(dir, 'spiky.jsonl'),
      [
        { timestamp: '2026-11-21T04:16:10.000Z', action: 'chat', tokens: 50 },
        { timestamp: '2026-11-21T04:16:20.000Z', action: 'Delete', tokens: 900 },
      ]
        .map((entry) => JSON.stringify(entry))
        .join('\n'),
    );
    const org = await cli('orgs', 'create', 'Package Org', '--json');
    expectExit(org, 0);
    const orgId = (JSON.parse(org.stdout) as { id: string }).id;
    expectExit(await cli('policy', 'set', orgId, '--max-tokens-per-request', '100'), 0);

    const submitted = [
      await cli('submit', '--tool', 'claude', '--action', 'chat', '--tokens', '1234', '--json'),
      await cli(
        'submit',
        ...['--tool', 'cursor', '--action', 'edit', '--org', orgId, '--timeline', join(dir, 'spiky.jsonl')],
        ...['--breakdown', 'input=700,output=250', '--json'],
      ),
      await cli('submit', '--tool', 'claude', '--action', 'session', '--timeline', join(dir, 'long.jsonl'), '--json'),
    ];
    expectExit(submitted[0] as CliResult, 0);
    expectExit(submitted[1] as CliResult, 3);
    expectExit(submitted[2] as CliResult, 0);
    for (const result of submitted) ids.push((JSON.parse(result.stdout) as Scan).id);
  });

  afterAll(() => stopServers(second, server));

  it('help lists the commands; usage mistakes exit 2 before anything is sent', async () => {
    const [help, evidenceHelp, ...usage] = await Promise.all([
      runCli(['help']),
      runCli(['evidence', '--help']),
      runCli(['import']),
      runCli(['export', 'scan_x']),
      runCli(['export', '--out', join(dir, 'x.zip')]),
      runCli(['evidence', 'download']),
      runCli(['evidence', 'download', 'scan_x', 'scan_y']),
      runCli(['evidence', 'download', 'scan_x', '--all']),
      runCli(['evidence', 'scan_x', '--force']),
      runCli(['import', 'a.zip', '--frob']),
    ]);
    expectExit(help, 0);
    for (const text of [
      'scandesk import FILE.zip...',
      'scandesk export --out FILE.zip',
      'scandesk evidence download SCAN_ID',
    ]) {
      expect(help.stdout).toContain(text);
    }
    expect(evidenceHelp.stdout).toMatch(
      /^scandesk evidence SCAN_ID .*\nscandesk evidence download SCAN_ID \[-o FILE\.zip\]/,
    );
    const expected = [
      /^error: import: missing FILE\.zip$/,
      /^error: export: missing --out FILE\.zip$/,
      /^error: export: missing SCAN_ID$/,
      /^error: evidence download: missing SCAN_ID$/,
      /^error: evidence download: unexpected argument "scan_y"$/,
      /^error: evidence download: --all does not apply here$/,
      /^error: evidence: --force does not apply here$/,
      /^error: unknown option --frob \(see scandesk import --help\)$/,
    ];
    usage.forEach((result, index) => expectUsage(result, expected[index] ?? /^$/));
    expect(existsSync(join(dir, 'x.zip'))).toBe(false);
  });

  it('evidence download saves scandesk-evidence-<id>.zip in the current directory, or -o FILE', async () => {
    const here = makeTempDir('scandesk-cli-download-');
    const [byDefault, named] = await Promise.all([
      runCli(['evidence', 'download', ids[2] as string, ...at], { cwd: here }),
      // Flags first, then the subcommand: still the download form.
      runCli([
        'evidence',
        '--url',
        server.url,
        '--token',
        server.token,
        'download',
        ids[1] as string,
        '-o',
        join(dir, 'one.zip'),
      ]),
    ]);
    expectExit(byDefault, 0);
    const name = `scandesk-evidence-${ids[2]}.zip`;
    const [, path, bytes] = SAVED.exec(lines(byDefault.stdout)[0] ?? '') ?? [];
    expect(path).toBe(name);
    expect(Number(bytes?.replaceAll(',', ''))).toBe(statSync(join(here, name)).size);
    expect(byDefault.stderr).toBe('');
    expect(readdirSync(here)).toEqual([name]);

    expectExit(named, 0);
    expect(lines(named.stdout)).toEqual([expect.stringMatching(SAVED)]);
    expect(lines(named.stdout)[0]).toContain(join(dir, 'one.zip'));

    for (const [file, scanId, entries] of [
      [join(here, name), ids[2], 2000],
      [join(dir, 'one.zip'), ids[1], 2],
    ] as const) {
      written.push(file);
      checkWithUnzip(file);
      expect(checkWithPython(file)).toEqual({ scans: [scanId], files: 3 });
      const files = await readZip(file);
      expect(files.get(`scans/${scanId}/timeline.jsonl`)?.toString('utf8').trimEnd().split('\n')).toHaveLength(entries);
    }
  });

  it('export writes one package holding the scans in the order given; the ZIP tools agree', async () => {
    const out = join(dir, 'all.zip');
    const result = await cli('export', '--out', out, ...ids);
    expectExit(result, 0);
    expect(lines(result.stdout)).toHaveLength(1);
    expect(SAVED.exec(lines(result.stdout)[0] ?? '')?.[1]).toBe(out);
    expect(result.stderr).toBe('');
    written.push(out);
    checkWithUnzip(out);
    expect(checkWithPython(out)).toEqual({ scans: ids, files: 9 });

    const files = await readZip(out);
    const evidence = jsonOf<Evidence>(files, `scans/${ids[1]}/evidence.json`);
    expect(evidence.evidence).toMatchObject({
      request_count: 2,
      total_tokens: 950,
      token_breakdown: { input: 700, output: 250 },
    });
    expect(evidence.evidence.violations?.length).toBeGreaterThan(0);
    expect(leftovers(dir)).toEqual([]);
  });

  it('refuses to overwrite an existing file unless --force, before downloading anything', async () => {
    const out = join(dir, 'all.zip');
    const before = readFileSync(out);
    const [exportAgain, downloadOver] = await Promise.all([
      cli('export', '--out', out, ids[0] as string),
      cli('evidence', 'download', ids[0] as string, '-o', out),
    ]);
    for (const result of [exportAgain, downloadOver]) {
      expectOneSentence(result, /^error: .*all\.zip already exists; pass --force to overwrite it$/);
    }
    expect(readFileSync(out).equals(before)).toBe(true);

    const forced = await cli('evidence', 'download', ids[0] as string, '-o', join(dir, 'one.zip'), '--force');
    expectExit(forced, 0);
    expect(checkWithPython(join(dir, 'one.zip'))).toEqual({ scans: [ids[0]], files: 3 });
    expect(leftovers(dir)).toEqual([]);
  });

  it('a server refusal (unknown scan) writes no file at all', async () => {
    const out = join(dir, 'missing.zip');
    const [exported, downloaded] = await Promise.all([
      cli('export', '--out', out, ids[0] as string, 'scan_nope'),
      cli('evidence', 'download', 'scan_nope', '-o', out),
    ]);
    for (const result of [exported, downloaded]) {
      expectExit(result, 1);
      expect(lines(result.stderr)[0]).toMatch(/^error: scan not found \(404 not_found\)$/);
    }
    expect(existsSync(out)).toBe(false);
    expect(leftovers(dir)).toEqual([]);
  });

  it('a download that breaks off, or is not a whole ZIP, leaves neither the file nor a temp file', async () => {
    const good = readFileSync(join(dir, 'all.zip'));
    const broken = await fakeServer((request, response) => {
      if (request.url?.includes('scan_cut')) {
        // Half a package, then the connection dies: what a crashed server looks like.
        response.writeHead(200, { 'Content-Type': 'application/zip' });
        response.write(good.subarray(0, good.length >> 1), () => response.socket?.destroy());
      } else if (request.url?.includes('scan_short')) {
        // A well-ended HTTP body that is only the start of a ZIP.
        response.writeHead(200, { 'Content-Type': 'application/zip' });
        response.end(good.subarray(0, 200));
      } else {
        response.writeHead(200, { 'Content-Type': 'text/html' });
        response.end('<html>not the API</html>');
      }
    });
    try {
      const flags = ['--url', broken.url, '--token', 'x'];
      const [cut, short, html] = await Promise.all([
        runCli(['evidence', 'download', 'scan_cut', '-o', join(dir, 'cut.zip'), ...flags]),
        runCli(['evidence', 'download', 'scan_short', '-o', join(dir, 'short.zip'), ...flags]),
        runCli(['export', '--out', join(dir, 'html.zip'), 'scan_x', ...flags]),
      ]);
      expectOneSentence(
        cut,
        /^error: the download broke off after \d+ bytes \(.+\); nothing was saved under .*cut\.zip$/,
      );
      expectOneSentence(short, /^error: the download is not a complete ZIP; nothing was saved under .*short\.zip$/);
      expectOneSentence(
        html,
        /^error: the server did not answer with a ZIP \(Content-Type: text\/html\); nothing was written$/,
      );
    } finally {
      await new Promise((resolve) => broken.server.close(resolve));
    }
    for (const name of ['cut.zip', 'short.zip', 'html.zip']) expect(existsSync(join(dir, name))).toBe(false);
    expect(leftovers(dir)).toEqual([]);
  });

  it('round trip: export, import into an empty server, export again: the same scans, evidence and entries', async () => {
    second = await startServe();
    const at2 = ['--url', second.url, '--token', second.token];
    const me = await fetch(`${second.url}/v1/me`, { headers: { authorization: `Bearer ${second.token}` } });
    secondOwner = ((await me.json()) as { id: string }).id;
    // Not the second server's owner's scans: stored under ids derived for that owner.
    const stored = ids.map((id) => derivedScanId(secondOwner, id));
    const imported = await runCli(['import', join(dir, 'all.zip'), ...at2]);
    expectExit(imported, 0);
    expect(lines(imported.stdout)).toEqual([
      `${join(dir, 'all.zip')}: imported 3 scans, 0 unchanged`,
      ...ids.map((id, i) => `  imported ${stored[i]} (package id ${id})`),
      '1 file: 3 scans imported, 0 unchanged, 0 files refused',
    ]);
    // Not a terminal: no progress bar, nothing on stderr.
    expect(imported.stderr).toBe('');

    const again = join(dir, 'again.zip');
    expectExit(await runCli(['export', '--out', again, ...stored, ...at2]), 0);
    written.push(again);
    checkWithUnzip(again);
    expect(checkWithPython(again)).toEqual({ scans: stored, files: 9 });

    const [before, exportedAgain] = await Promise.all([readZip(join(dir, 'all.zip')), readZip(again)]);
    // The second package under the first one's ids: scan and violation ids renamed back.
    const back = new Map(ids.map((id, i) => [stored[i]!, id]));
    for (const id of ids) {
      for (const violation of jsonOf<Scan>(before, `scans/${id}/scan.json`).violations) {
        back.set(derivedViolationId(secondOwner, violation.id), violation.id);
      }
    }
    const renamed = (text: string): string => [...back].reduce((out, [from, to]) => out.replaceAll(from, to), text);
    const after = new Map(
      [...exportedAgain].map(([name, data]) => [renamed(name), Buffer.from(renamed(data.toString()))]),
    );
    expect([...after.keys()]).toEqual([...before.keys()]);
    const [m1, m2] = [jsonOf<Manifest>(before, 'manifest.json'), jsonOf<Manifest>(after, 'manifest.json')];
    expect({ ...m2, exported_at: 'x' }).toMatchObject({ ...m1, exported_at: 'x', files: expect.any(Array) as unknown });
    for (const id of ids) {
      // docs/contract/package-format.md#import: an imported scan is the importer's, source "imported", no organization; the rest is the same.
      const [s1, s2] = [jsonOf<Scan>(before, `scans/${id}/scan.json`), jsonOf<Scan>(after, `scans/${id}/scan.json`)];
      expect(s2).toEqual({ ...s1, source: 'imported', organization_id: null });
      for (const name of [`scans/${id}/evidence.json`, `scans/${id}/timeline.jsonl`]) {
        expect(after.get(name)?.equals(before.get(name) as Buffer), name).toBe(true);
        const file = m2.files.find((f) => f.path === name)!;
        // The sums are of the bytes the second server wrote, its own ids in them.
        const original = exportedAgain.get(file.path.replace(id, stored[ids.indexOf(id)]!))!;
        expect(file).toEqual({
          path: name,
          bytes: original.length,
          sha256: createHash('sha256').update(original).digest('hex'),
        });
        expect(file.bytes).toBe(m1.files.find((f) => f.path === name)!.bytes);
      }
    }
    const timeline = after.get(`scans/${ids[2]}/timeline.jsonl`)?.toString('utf8') ?? '';
    expect(timeline.trimEnd().split('\n')).toHaveLength(2000);
    expect(createHash('sha256').update(timeline).digest('hex')).toBe(
      m1.files.find((file) => file.path === `scans/${ids[2]}/timeline.jsonl`)?.sha256,
    );
  });

  it('importing the same package again, on either server, reports every scan unchanged; --json per file', async () => {
    if (!second) throw new Error('the round-trip test did not run');
    const [here, there] = await Promise.all([
      cli('import', join(dir, 'all.zip'), join(dir, 'one.zip')),
      runCli(['import', join(dir, 'again.zip'), '--json', '--url', second.url, '--token', second.token]),
    ]);
    expectExit(here, 0);
    expect(lines(here.stdout)).toEqual([
      `${join(dir, 'all.zip')}: imported 0 scans, 3 unchanged`,
      ...ids.map((id) => `  unchanged ${id}`),
      // one.zip was overwritten with the first scan's package (--force, above).
      `${join(dir, 'one.zip')}: imported 0 scans, 1 unchanged`,
      `  unchanged ${ids[0]}`,
      '2 files: 0 scans imported, 4 unchanged, 0 files refused',
    ]);
    expectExit(there, 0);
    // again.zip holds the second server's own scans: their ids stay.
    const stored = ids.map((id) => derivedScanId(secondOwner, id));
    expect(JSON.parse(there.stdout)).toEqual({
      files: [
        {
          file: join(dir, 'again.zip'),
          status: 'imported',
          imported: [],
          unchanged: stored,
          ids: Object.fromEntries(stored.map((id) => [id, id])),
        },
      ],
      totals: { files: 1, imported: 0, unchanged: 3, refused: 0, failed: 0 },
    });
  });

  it('hostile and missing files are refused, naming the entry, while a good file in the same run imports', async () => {
    if (!second) throw new Error('the round-trip test did not run');
    const fresh = await cli('submit', '--tool', 'claude', '--action', 'late', '--tokens', '7', '--json');
    expectExit(fresh, 0);
    const freshId = (JSON.parse(fresh.stdout) as Scan).id;
    const good = join(dir, 'fresh.zip');
    expectExit(await cli('evidence', 'download', freshId, '-o', good), 0);
    written.push(good);

    const text = join(dir, 'notes.zip');
    writeFileSync(text, 'these are my notes, not a ZIP\n');
    const dotdot = join(dir, 'dotdot.zip');
    writeFileSync(dotdot, buildZip([{ name: '../x', data: Buffer.from('x') }]));
    const missing = join(dir, 'no-such.zip');

    const result = await runCli(['import', text, dotdot, missing, good, '--url', second.url, '--token', second.token]);
    expectExit(result, 1);
    expect(lines(result.stdout)).toEqual([
      expect.stringMatching(new RegExp(`^${text}: refused — not a ZIP archive`)),
      `${dotdot}: refused — ../x: the name contains ".."`,
      '  - ../x: the name contains ".."',
      `${missing}: failed — cannot read it (no such file)`,
      `${good}: imported 1 scan, 0 unchanged`,
      `  imported ${derivedScanId(secondOwner, freshId)} (package id ${freshId})`,
      '4 files: 1 scan imported, 0 unchanged, 2 files refused, 1 file failed',
    ]);
    expect(result.stderr).toBe('');

    // All or nothing: the refused packages left nothing behind; the good one is there.
    const storedId = derivedScanId(secondOwner, freshId);
    const list = await runCli(['scans', 'get', storedId, '--json', '--url', second.url, '--token', second.token]);
    expectExit(list, 0);
    expect(JSON.parse(list.stdout)).toMatchObject({ id: storedId, source: 'imported', organization_id: null });
  });

  it('an unreachable server is one sentence, for each command', async () => {
    const flags = ['--url', `http://127.0.0.1:${await closedPort()}`, '--token', 'x'];
    const results = await Promise.all([
      runCli(['import', join(dir, 'all.zip'), join(dir, 'one.zip'), ...flags]),
      runCli(['export', '--out', join(dir, 'nowhere.zip'), 'scan_x', ...flags]),
      runCli(['evidence', 'download', 'scan_x', '-o', join(dir, 'nowhere.zip'), ...flags]),
    ]);
    for (const result of results) {
      expectExit(result, 1);
      expect(lines(result.stderr)).toEqual([expect.stringMatching(UNREACHABLE)]);
    }
    expect(existsSync(join(dir, 'nowhere.zip'))).toBe(false);
  });

  it.skipIf(!HAS_7Z)(
    `7-Zip tests every package written (skipped when ${SEVEN_ZIP} is absent: apt-get install p7zip-full)`,
    () => {
      expect(written.length).toBeGreaterThanOrEqual(5);
      for (const file of written) checkWith7z(file);
    },
  );
});
