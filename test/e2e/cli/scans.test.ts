/**
 * The scan commands of the CLI (submit, scans, evidence, policy) as a user runs them, against one
 * real `scandesk serve`. Tests run in order: later ones read the scans earlier ones submitted.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Evidence } from '../../../src/shared/api/evidence';
import type { Policy } from '../../../src/shared/api/policies';
import type { Scan, ScanList } from '../../../src/shared/api/scans';
import {
  makeTempDir,
  runCli,
  serverFlags,
  startServe,
  type CliResult,
  type ServeProcess,
} from '../../helpers/serve-process';
import { closedPort, expectExit, expectUsage, lines, stopServers } from '../../helpers/cli-output';

const SCAN_ID = /^scan_\w+$/;
const TIMESTAMP = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

/** Splits aligned table lines into their cells. */
function cells(tableLines: string[]): string[][] {
  return tableLines.map((line) => line.trim().split(/ {2,}/));
}

function jsonl(entries: { timestamp: string; action: string; tokens: number }[]): string {
  return `${entries.map((entry) => JSON.stringify(entry)).join('\n')}\n`;
}

describe('scandesk submit, scans, evidence and policy', () => {
  let server: ServeProcess;
  let at: string[];
  let dir: string;
  let orgId: string;

  const cli = (...args: string[]): Promise<CliResult> => runCli([...args, ...at]);
  const json = async <T>(...args: string[]): Promise<T> => {
    const result = await cli(...args, '--json');
    expectExit(result, 0);
    return JSON.parse(result.stdout) as T;
  };

  beforeAll(async () => {
    server = await startServe();
    at = serverFlags(server);
    dir = makeTempDir('scandesk-cli-scans-');
    // Out of timestamp order on purpose: the server sorts, and violations must still name the right line.
    writeFileSync(
      join(dir, 'session.jsonl'),
      [
        JSON.stringify({ timestamp: '2026-11-21T04:16:20.000Z', action: 'chat', tokens: 50 }),
        '',
        JSON.stringify({ timestamp: '2026-11-21T04:16:10.000Z', action: 'Delete', tokens: 500 }),
        JSON.stringify({ timestamp: '2026-11-21T04:17:00.000Z', action: 'read', tokens: 5 }),
        '',
      ].join('\n'),
    );
    writeFileSync(
      join(dir, 'long.jsonl'),
      jsonl(
        Array.from({ length: 120 }, (_, i) => ({
          timestamp: new Date(Date.UTC(2026, 10, 21, 8, 0, i)).toISOString(),
          action: i % 2 === 0 ? 'chat' : 'edit',
          tokens: i,
        })),
      ),
    );
    writeFileSync(
      join(dir, 'bad.jsonl'),
      [
        JSON.stringify({ timestamp: '2026-11-21T04:16:20.000Z', action: 'chat', tokens: 50 }),
        '',
        '{"timestamp": "2026-11-21T04:16:21.000Z", "action": "chat", "tokens": -3}',
        'not json at all',
      ].join('\n'),
    );
    const org = await runCli(['orgs', 'create', 'Policy Org', '--json', ...at]);
    expectExit(org, 0);
    orgId = (JSON.parse(org.stdout) as { id: string }).id;
  });

  afterAll(() => stopServers(server));

  it('help lists the new commands; each has its own help', async () => {
    const [help, submit, scans, policy] = await Promise.all([
      runCli(['help']),
      runCli(['submit', '--help']),
      runCli(['scans', '-h']),
      runCli(['policy', '--help']),
    ]);
    expectExit(help, 0);
    for (const usage of [
      'scandesk submit',
      'scandesk scans list',
      'scandesk scans get',
      'scandesk evidence',
      'scandesk policy get',
      'scandesk policy set',
    ]) {
      expect(help.stdout).toContain(usage);
    }
    expect(submit.stdout).toMatch(/^scandesk submit --tool T --action A --tokens N/);
    expect(scans.stdout).toMatch(/^scandesk scans list /);
    expect(scans.stdout).toContain('--until with a day\n  includes that whole UTC day');
    expect(policy.stdout).toMatch(/^scandesk policy get ORG_ID/);
  });

  it('exits 2 on usage mistakes before sending anything, even without a token', async () => {
    const results = await Promise.all([
      runCli(['submit', '--tool', 'claude', '--tokens', '5']),
      runCli(['submit', '--tool', 'claude', '--action', 'chat']),
      runCli(['submit', '--tool', 'claude', '--action', 'chat', '--tokens', 'many']),
      runCli(['submit', '--tool', 'claude', '--action', 'chat', '--timeline', join(dir, 'bad.jsonl')]),
      runCli(['submit', '--tool', 'claude', '--action', 'chat', '--timeline', join(dir, 'missing.jsonl')]),
      runCli([
        'submit',
        '--tool',
        'claude',
        '--action',
        'chat',
        '--tokens',
        '1',
        '--timeline',
        join(dir, 'session.jsonl'),
      ]),
      runCli(['submit', '--tool', 'claude', '--action', 'chat', '--tokens', '1', '--breakdown', 'input:5']),
      runCli(['scans', 'list', '--has-violations', 'maybe']),
      runCli(['scans', 'list', '--since', 'last week']),
      runCli(['scans', 'list', '--limit', 'ten']),
      runCli(['scans', 'get']),
      runCli(['scans', 'frob']),
      runCli(['evidence']),
      runCli(['policy', 'set', 'org_x']),
      runCli(['policy', 'set', 'org_x', '--max-tokens-per-scan', 'lots']),
      runCli(['policy', 'get', 'org_x', '--blocked-tools', 'x']),
      runCli(['constructor']),
    ]);
    const expected = [
      /^error: submit: missing --action$/,
      /^error: submit: missing --tokens \(or --timeline\)$/,
      /^error: --tokens: expected a non-negative integer, got many$/,
      /^error: .*bad\.jsonl line 3: "tokens" must be a whole number ≥ 0, not -3$/,
      /^error: --timeline: cannot read .*missing\.jsonl \(ENOENT\)$/,
      /^error: --tokens 1 does not match .*session\.jsonl, whose entries add up to 555/,
      /^error: --breakdown: "input:5" is not TYPE=N/,
      /^error: --has-violations must be true or false, not "maybe"$/,
      /^error: --since must be a date \(2026-11-01\) or an ISO 8601 date-time/,
      /^error: --limit: expected a non-negative integer/,
      /^error: scans get: missing SCAN_ID$/,
      /^error: scans: unknown action "frob"$/,
      /^error: evidence: missing SCAN_ID$/,
      /^error: policy set: nothing to change/,
      /^error: --max-tokens-per-scan must be a whole number ≥ 0 or "none"/,
      /^error: .*--blocked-tools/,
      /^error: unknown command "constructor"/,
    ];
    results.forEach((result, index) => expectUsage(result, expected[index] ?? /^$/));
  });

  let plain: Scan;

  it('submit without a timeline prints the id and "no violations", exit 0; --json prints the scan', async () => {
    const [table, asJson] = await Promise.all([
      cli('submit', '--tool', 'claude', '--action', 'chat', '--tokens', '1234'),
      cli('submit', '--tool', 'cursor', '--action', 'edit', '--tokens', '0', '--breakdown', 'input=0', '--json'),
    ]);
    expectExit(table, 0);
    const [first, second, ...rest] = lines(table.stdout);
    expect(first).toMatch(/^submitted scan_\w+: claude chat, 1,234 tokens$/);
    expect(second).toBe('no violations');
    expect(rest).toEqual([]);

    expectExit(asJson, 0);
    plain = JSON.parse(asJson.stdout) as Scan;
    expect(plain).toEqual({
      id: expect.stringMatching(SCAN_ID),
      created_at: expect.stringMatching(TIMESTAMP),
      tool: 'cursor',
      action: 'edit',
      tokens: 0,
      status: 'completed',
      violations: [],
      violation_count: 0,
      violations_truncated: false,
      organization_id: null,
      source: 'submitted',
    });
  });

  it('submit with --timeline sends the entries and their sum as the tokens', async () => {
    const scan = await json<Scan>(
      'submit',
      '--tool',
      'claude',
      '--action',
      'session',
      '--timeline',
      join(dir, 'session.jsonl'),
      '--breakdown',
      'input=400,output=155',
    );
    expect(scan).toMatchObject({ tokens: 555, organization_id: null, violations: [] });
    const evidence = await json<Evidence>('evidence', scan.id);
    expect(evidence.evidence).toEqual({
      request_count: 3,
      total_tokens: 555,
      timeline: [
        { timestamp: '2026-11-21T04:16:10.000Z', action: 'Delete', tokens: 500 },
        { timestamp: '2026-11-21T04:16:20.000Z', action: 'chat', tokens: 50 },
        { timestamp: '2026-11-21T04:17:00.000Z', action: 'read', tokens: 5 },
      ],
      token_breakdown: { input: 400, output: 155 },
      violations: [],
    });
  });

  it('policy get shows a new organization’s empty policy, readable or as JSON', async () => {
    const [readable, asJson] = await Promise.all([cli('policy', 'get', orgId), cli('policy', 'get', orgId, '--json')]);
    expectExit(readable, 0);
    expect(cells(lines(readable.stdout))).toEqual([
      ['max tokens per scan', 'none'],
      ['max tokens per request', 'none'],
      ['allowed tools', 'any'],
      ['blocked tools', 'none'],
      ['blocked actions', 'none'],
    ]);
    expectExit(asJson, 0);
    expect(JSON.parse(asJson.stdout)).toEqual({
      max_tokens_per_scan: null,
      max_tokens_per_request: null,
      allowed_tools: null,
      blocked_tools: [],
      blocked_actions: [],
    });
  });

  it('policy set changes only the given fields and keeps the others', async () => {
    const first = await cli('policy', 'set', orgId, '--max-tokens-per-request', '100', '--blocked-tools', 'evil-tool');
    expectExit(first, 0);
    expect(lines(first.stdout)[0]).toBe(`updated the policy of ${orgId}`);
    expect(cells(lines(first.stdout).slice(1))).toEqual([
      ['max tokens per scan', 'none'],
      ['max tokens per request', '100'],
      ['allowed tools', 'any'],
      ['blocked tools', 'evil-tool'],
      ['blocked actions', 'none'],
    ]);

    const second = await json<Policy>(
      'policy',
      'set',
      orgId,
      '--blocked-actions',
      'delete,exec',
      '--allowed-tools',
      'claude,cursor',
      '--max-tokens-per-scan',
      '10000',
    );
    const expected: Policy = {
      max_tokens_per_scan: 10_000,
      max_tokens_per_request: 100,
      allowed_tools: ['claude', 'cursor'],
      blocked_tools: ['evil-tool'],
      blocked_actions: ['delete', 'exec'],
    };
    expect(second).toEqual(expected);
    expect(await json<Policy>('policy', 'get', orgId)).toEqual(expected);
  });

  let flagged: Scan;

  it('submit into an organization whose policy is broken: exit 3 and every violation with its entry', async () => {
    const result = await cli(
      'submit',
      '--tool',
      'copilot',
      '--action',
      'agent',
      '--org',
      orgId,
      '--timeline',
      join(dir, 'session.jsonl'),
    );
    expectExit(result, 3);
    expect(result.stderr).toBe('');
    const [first, count, header, ...rows] = lines(result.stdout);
    expect(first).toMatch(/^submitted scan_\w+: copilot agent, 555 tokens$/);
    expect(count).toBe('3 violations:');
    expect(cells([header ?? ''])).toEqual([['SEVERITY', 'RULE', 'MESSAGE', 'ENTRY']]);
    const file = join(dir, 'session.jsonl');
    // The 500-token `Delete` is line 3 of the file and entry 0 once sorted by timestamp.
    expect(cells(rows)).toEqual([
      ['high', 'tool.not_allowed', expect.stringContaining('"copilot"'), '-'],
      ['high', 'action.blocked', expect.stringContaining('"Delete"'), `entry 0 (${file} line 3)`],
      ['low', 'tokens.request_limit', expect.stringContaining('500 tokens'), `entry 0 (${file} line 3)`],
    ]);

    const asJson = await cli(
      'submit',
      '--tool',
      'EVIL-TOOL',
      '--action',
      'chat',
      '--tokens',
      '20000',
      '--org',
      orgId,
      '--json',
    );
    expectExit(asJson, 3);
    flagged = JSON.parse(asJson.stdout) as Scan;
    expect(flagged.organization_id).toBe(orgId);
    expect(flagged.violations.map((v) => [v.rule, v.severity, v.timeline_index])).toEqual([
      ['tool.blocked', 'critical', null],
      ['tool.not_allowed', 'high', null],
      ['tokens.scan_limit', 'medium', null],
      ['tokens.request_limit', 'low', 0],
    ]);
  });

  it('a bad JSONL line is refused with its line number and nothing reaches the server', async () => {
    const before = await json<ScanList>('scans', 'list', '--limit', '1');
    const bad = await cli('submit', '--tool', 'claude', '--action', 'chat', '--timeline', join(dir, 'bad.jsonl'));
    expectUsage(bad, /bad\.jsonl line 3: "tokens" must be a whole number ≥ 0, not -3$/);
    expect(lines(bad.stderr)).toHaveLength(1);
    expect((await json<ScanList>('scans', 'list', '--limit', '1')).total).toBe(before.total);
  });

  it('scans list prints a table, newest first, with a footer; --json prints the API response', async () => {
    const [readable, asJson] = await Promise.all([cli('scans', 'list'), cli('scans', 'list', '--json')]);
    expectExit(asJson, 0);
    const page = JSON.parse(asJson.stdout) as ScanList;
    expect(page.total).toBe(5);
    expect(page.scans).toHaveLength(5);
    expect(page.scans[0]?.id).toBe(flagged.id);

    expectExit(readable, 0);
    const all = lines(readable.stdout);
    expect(all.at(-1)).toBe('showing 1–5 of 5');
    const [header, ...rows] = cells(all.slice(0, -1));
    expect(header).toEqual(['ID', 'CREATED', 'TOOL', 'ACTION', 'TOKENS', 'STATUS', 'VIOLATIONS']);
    expect(rows).toHaveLength(5);
    expect(rows.map((row) => row[0])).toEqual(page.scans.map((scan) => scan.id));
    expect(rows[0]).toEqual([
      flagged.id,
      flagged.created_at,
      'EVIL-TOOL',
      'chat',
      '20,000',
      'completed',
      '4 (critical)',
    ]);
    expect(rows.find((row) => row[0] === plain.id)).toEqual([
      plain.id,
      plain.created_at,
      'cursor',
      'edit',
      '0',
      'completed',
      '0',
    ]);
  });

  it('scans list passes the filters on and pages', async () => {
    const [byTool, flaggedOnly, clean, inOrg, firstPage, secondPage, past, none] = await Promise.all([
      json<ScanList>('scans', 'list', '--tool', 'claude'),
      json<ScanList>('scans', 'list', '--has-violations', 'true'),
      json<ScanList>('scans', 'list', '--has-violations', 'false'),
      json<ScanList>('scans', 'list', '--org', orgId),
      cli('scans', 'list', '--limit', '2'),
      cli('scans', 'list', '--limit', '2', '--offset', '2'),
      cli('scans', 'list', '--offset', '10'),
      cli('scans', 'list', '--until', '2000-01-01', '--since', '1999-01-01'),
    ]);
    expect(byTool.total).toBe(2);
    expect(byTool.scans.every((scan) => scan.tool === 'claude')).toBe(true);
    expect(flaggedOnly.total).toBe(2);
    expect(flaggedOnly.scans.every((scan) => scan.violation_count > 0)).toBe(true);
    expect(clean.total).toBe(3);
    expect(inOrg.scans.map((scan) => scan.organization_id)).toEqual([orgId, orgId]);

    expectExit(firstPage, 0);
    expect(lines(firstPage.stdout)).toHaveLength(1 + 2 + 1);
    expect(lines(firstPage.stdout).at(-1)).toBe('showing 1–2 of 5 (next: --offset 2)');
    expect(lines(secondPage.stdout).at(-1)).toBe('showing 3–4 of 5 (next: --offset 4)');
    expect(lines(past.stdout)).toEqual(['no scans at offset 10; 5 scans match']);
    expect(lines(none.stdout)).toEqual(['no scans match']);
  });

  it('scans list --since D --until D lists the scans of UTC day D', async () => {
    const all = await json<ScanList>('scans', 'list');
    const day = all.scans[0]!.created_at.slice(0, 10);
    const onDay = await json<ScanList>('scans', 'list', '--since', day, '--until', day);
    expect(onDay.total).toBeGreaterThan(0);
    expect(onDay.scans.map((scan) => scan.id)).toEqual(
      all.scans.filter((scan) => scan.created_at.startsWith(day)).map((scan) => scan.id),
    );
  });

  it('scans list reports the server’s refusal of a bad filter value as a server error', async () => {
    const result = await cli('scans', 'list', '--limit', '501');
    expectExit(result, 1);
    expect(lines(result.stderr)[0]).toMatch(/^error: .*limit.* \(400 validation_failed\)$/);
  });

  it('scans get prints the scan and its violations; --json the scan; an unknown id is 404', async () => {
    const [readable, asJson, missing] = await Promise.all([
      cli('scans', 'get', flagged.id),
      cli('scans', 'get', flagged.id, '--json'),
      cli('scans', 'get', 'scan_01JZZZZZZZZZZZZZZZZZZZZZZZ'),
    ]);
    expectExit(readable, 0);
    const all = lines(readable.stdout);
    expect(cells(all.slice(0, 8))).toEqual([
      ['id', flagged.id],
      ['created', flagged.created_at],
      ['tool', 'EVIL-TOOL'],
      ['action', 'chat'],
      ['tokens', '20,000'],
      ['status', 'completed'],
      ['organization', orgId],
      ['source', 'submitted'],
    ]);
    expect(all[8]).toBe('4 violations:');
    expect(cells(all.slice(10)).map((row) => [row[0], row[1], row[3]])).toEqual([
      ['critical', 'tool.blocked', '-'],
      ['high', 'tool.not_allowed', '-'],
      ['medium', 'tokens.scan_limit', '-'],
      ['low', 'tokens.request_limit', 'entry 0'],
    ]);
    expectExit(asJson, 0);
    expect(JSON.parse(asJson.stdout)).toEqual(flagged);
    expectExit(missing, 1);
    expect(missing.stderr).toMatch(/^error: .* \(404 not_found\)\n$/);
  });

  let long: Scan;

  it('evidence prints totals, breakdown, violations and the timeline; long timelines are cut at 50 unless --all', async () => {
    long = await json<Scan>('submit', '--tool', 'claude', '--action', 'batch', '--timeline', join(dir, 'long.jsonl'));
    expect(long.tokens).toBe((119 * 120) / 2);

    const [readable, all, asJson] = await Promise.all([
      cli('evidence', long.id),
      cli('evidence', long.id, '--all'),
      cli('evidence', long.id, '--json'),
    ]);
    expectExit(readable, 0);
    const text = lines(readable.stdout);
    expect(cells(text.slice(0, 4))).toEqual([
      ['scan', long.id],
      ['requests', '120'],
      ['total tokens', '7,140'],
      ['token breakdown', 'none'],
    ]);
    expect(text[4]).toBe('no violations');
    expect(text[5]).toBe('timeline (120 entries):');
    expect(cells([text[6] ?? ''])).toEqual([['#', 'TIMESTAMP', 'ACTION', 'TOKENS']]);
    expect(cells(text.slice(7, 9))).toEqual([
      ['0', '2026-11-21T08:00:00.000Z', 'chat', '0'],
      ['1', '2026-11-21T08:00:01.000Z', 'edit', '1'],
    ]);
    expect(text.slice(7, -1)).toHaveLength(50);
    expect(text.at(-1)).toBe('first 50 of 120 shown, 70 omitted; --all shows every entry');

    expectExit(all, 0);
    const allText = lines(all.stdout);
    expect(allText.slice(7)).toHaveLength(120);
    expect(cells([allText.at(-1) ?? ''])).toEqual([['119', '2026-11-21T08:01:59.000Z', 'edit', '119']]);

    expectExit(asJson, 0);
    const evidence = JSON.parse(asJson.stdout) as Evidence;
    expect(evidence.scan_id).toBe(long.id);
    expect(evidence.evidence.timeline).toHaveLength(120);
  });

  it('evidence --types limits what is shown; an unknown type is the server’s 400', async () => {
    const [violationsOnly, asJson, unknown] = await Promise.all([
      cli('evidence', flagged.id, '--types', 'violations'),
      cli('evidence', flagged.id, '--types', 'timeline,token_breakdown', '--json'),
      cli('evidence', flagged.id, '--types', 'timeline,bogus'),
    ]);
    expectExit(violationsOnly, 0);
    const text = lines(violationsOnly.stdout);
    expect(cells(text.slice(0, 3))).toEqual([
      ['scan', flagged.id],
      ['requests', '1'],
      ['total tokens', '20,000'],
    ]);
    expect(text[3]).toBe('4 violations:');
    expect(violationsOnly.stdout).not.toContain('timeline');
    expect(violationsOnly.stdout).not.toContain('token breakdown');

    expectExit(asJson, 0);
    expect(Object.keys((JSON.parse(asJson.stdout) as Evidence).evidence).sort()).toEqual([
      'request_count',
      'timeline',
      'token_breakdown',
      'total_tokens',
    ]);
    expectExit(unknown, 1);
    expect(unknown.stderr).toMatch(/^error: types must be .* \(400 validation_failed\)\n {2}- types: /);
  });

  it('policy commands report the server’s answer for an organization one cannot see', async () => {
    const result = await cli('policy', 'set', 'org_01JZZZZZZZZZZZZZZZZZZZZZZZ', '--blocked-tools', 'x');
    expectExit(result, 1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^error: .* \(404 not_found\)\n$/);
  });

  it('submit says in one sentence that the server cannot be reached, exit 1', async () => {
    const port = await closedPort();
    const result = await runCli([
      'submit',
      '--tool',
      'claude',
      '--action',
      'chat',
      '--timeline',
      join(dir, 'session.jsonl'),
      '--url',
      `http://127.0.0.1:${port}`,
      '--token',
      server.token,
    ]);
    expectExit(result, 1);
    expect(result.stdout).toBe('');
    expect(lines(result.stderr)).toEqual([
      expect.stringMatching(
        new RegExp(`^error: cannot reach the Scandesk server at http://127\\.0\\.0\\.1:${port} .*\\?$`),
      ),
    ]);
  });
});
