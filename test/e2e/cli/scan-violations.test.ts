/**
 * A scan with more violations than its scan object lists, through the CLI against a real server:
 * `submit` and `scans get` print the count and the first ones with the command that pages on,
 * and `scans violations` pages through the rest.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ViolationPage } from '../../../src/shared/api/scan-violations';
import { SCAN_VIOLATIONS_INLINE_MAX, type Scan } from '../../../src/shared/api/scans';
import { expectExit, expectUsage, lines, stopServers } from '../../helpers/cli-output';
import { cliAt, makeTempDir, startServe, type CliResult, type ServeProcess } from '../../helpers/serve-process';

const ENTRIES = 1500;

describe('scandesk scans violations', () => {
  let server: ServeProcess;
  let cli: (...args: string[]) => Promise<CliResult>;
  let scanId: string;
  let submitted: CliResult;

  beforeAll(async () => {
    server = await startServe();
    cli = cliAt(server);
    const dir = makeTempDir('scandesk-cli-violations-');
    const start = Date.UTC(2026, 10, 21);
    const timeline = Array.from({ length: ENTRIES }, (_, i) =>
      JSON.stringify({ timestamp: new Date(start + i * 1000).toISOString(), action: 'chat', tokens: 2 }),
    );
    writeFileSync(join(dir, 'long.jsonl'), `${timeline.join('\n')}\n`);
    const org = await cli('orgs', 'create', 'Strict', '--json');
    expectExit(org, 0);
    const orgId = (JSON.parse(org.stdout) as { id: string }).id;
    expectExit(await cli('policy', 'set', orgId, '--max-tokens-per-request', '1'), 0);
    submitted = await cli(
      'submit',
      '--tool',
      'agent',
      '--action',
      'session',
      '--org',
      orgId,
      '--timeline',
      join(dir, 'long.jsonl'),
    );
    scanId = /submitted (scan_\w+)/.exec(submitted.stdout)?.[1] ?? '';
  }, 60_000);

  afterAll(() => stopServers(server));

  it('submit prints the count, the first violations and the command for the rest', () => {
    expectExit(submitted, 3);
    const out = lines(submitted.stdout);
    expect(out[1]).toBe(`1,500 violations, the first 1,000 shown:`);
    // A header row, then one row per violation shown.
    expect(out.slice(3, 3 + SCAN_VIOLATIONS_INLINE_MAX).every((line) => line.includes('tokens.request_limit'))).toBe(
      true,
    );
    expect(out.at(-1)).toBe(`500 more: scandesk scans violations ${scanId} --offset 1000`);
  });

  it('scans get prints the same, and --json gives the scan object with its count', async () => {
    const got = await cli('scans', 'get', scanId);
    expectExit(got, 0);
    const out = lines(got.stdout);
    expect(out).toContain('1,500 violations, the first 1,000 shown:');
    expect(out.filter((line) => line.includes('tokens.request_limit'))).toHaveLength(SCAN_VIOLATIONS_INLINE_MAX);
    expect(out.at(-1)).toBe(`500 more: scandesk scans violations ${scanId} --offset 1000`);

    const json = await cli('scans', 'get', scanId, '--json');
    expectExit(json, 0);
    const scan = JSON.parse(json.stdout) as Scan;
    expect(scan.violations).toHaveLength(SCAN_VIOLATIONS_INLINE_MAX);
    expect(scan).toMatchObject({ violation_count: ENTRIES, violations_truncated: true });
  });

  it('evidence lists the first violations as scans get does, and every one with --all', async () => {
    const shown = await cli('evidence', scanId, '--types', 'violations');
    expectExit(shown, 0);
    const out = lines(shown.stdout);
    expect(out).toContain('1,500 violations, the first 1,000 shown:');
    expect(out.filter((line) => line.includes('tokens.request_limit'))).toHaveLength(SCAN_VIOLATIONS_INLINE_MAX);
    expect(out.at(-1)).toBe(`500 more: scandesk scans violations ${scanId} --offset 1000`);

    const all = await cli('evidence', scanId, '--types', 'violations', '--all');
    expectExit(all, 0);
    expect(lines(all.stdout)).toContain('1,500 violations:');
    expect(lines(all.stdout).filter((line) => line.includes('tokens.request_limit'))).toHaveLength(ENTRIES);
  });

  it('scans violations pages on from where the scan object stopped', async () => {
    const rest = await cli('scans', 'violations', scanId, '--offset', '1000', '--limit', '1000');
    expectExit(rest, 0);
    const out = lines(rest.stdout);
    expect(out[0]).toMatch(/^SEVERITY\s+RULE\s+MESSAGE\s+ENTRY$/);
    expect(out.slice(1, -1)).toHaveLength(500);
    expect(out[1]).toMatch(/entry 1000$/);
    expect(out.at(-2)).toMatch(/entry 1499$/);
    expect(out.at(-1)).toBe('showing 1,001–1,500 of 1,500');

    const first = await cli('scans', 'violations', scanId);
    expectExit(first, 0);
    expect(lines(first.stdout).at(-1)).toBe('showing 1–100 of 1,500 (next: --offset 100)');

    const json = await cli('scans', 'violations', scanId, '--offset', '1490', '--json');
    expectExit(json, 0);
    const page = JSON.parse(json.stdout) as ViolationPage;
    expect(page.total).toBe(ENTRIES);
    expect(page.violations.map((v) => v.timeline_index)).toEqual([
      1490, 1491, 1492, 1493, 1494, 1495, 1496, 1497, 1498, 1499,
    ]);

    const beyond = await cli('scans', 'violations', scanId, '--offset', '2000');
    expectExit(beyond, 0);
    expect(beyond.stdout).toBe('no violations at offset 2,000; 1,500 violations match\n');
  });

  it('refuses a missing id and a bad number (2), and passes on the server refusals (1)', async () => {
    expectUsage(await cli('scans', 'violations'), /missing SCAN_ID/);
    expectUsage(await cli('scans', 'violations', scanId, '--limit', 'many'), /--limit/);
    const tooMany = await cli('scans', 'violations', scanId, '--limit', '1001');
    expectExit(tooMany, 1);
    expect(tooMany.stderr).toMatch(/limit/);
    const unknown = await cli('scans', 'violations', 'scan_00000000000000000000000000');
    expectExit(unknown, 1);
    expect(unknown.stderr).toMatch(/not found/);
  });
});
