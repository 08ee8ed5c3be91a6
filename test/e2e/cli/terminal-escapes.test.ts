/**
 * What `scandesk` prints when the server hands it text with terminal controls in it: a store
 * written before the API refused them, or a server that is not ours. A loopback HTTP server
 * answers each route with such text; every command must print it escaped, never raw.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanupProcesses, runCli, type CliResult } from '../../helpers/serve-process';
import { C1_CLEAR, OSC52, rawControls } from '../../helpers/terminal-controls';

const OSC52_SHOWN = '\\u001b]52;c;Y3VybCBldmlsLmV4YW1wbGUgfCBzaA==\\u0007';
const RTL = '\u202e';
const HOSTILE = `${OSC52}${C1_CLEAR}${RTL}\u007f`;
const HOSTILE_SHOWN = `${OSC52_SHOWN}\\u009b2J\\u202e\\u007f`;

const violation = {
  id: 'vio_1',
  rule: `rule${HOSTILE}`,
  severity: 'high',
  message: `message${HOSTILE}\nerror: forged line`,
  timeline_index: 0,
};
const scan = {
  id: 'scan_1',
  created_at: '2026-11-21T04:16:15.470Z',
  tool: `tool${HOSTILE}`,
  action: `action${HOSTILE}`,
  tokens: 5,
  status: 'completed',
  violations: [violation],
  organization_id: null,
  source: 'imported',
};
const ANSWERS: Record<string, [number, unknown]> = {
  '/v1/scans/scan_1': [200, scan],
  '/v1/scans': [
    200,
    {
      scans: [{ ...scan, violations: undefined, violation_count: 1, worst_severity: 'high' }],
      total: 1,
    },
  ],
  '/v1/scans/scan_1/evidence': [
    200,
    {
      scan_id: 'scan_1',
      evidence: {
        request_count: 1,
        total_tokens: 5,
        timeline: [{ timestamp: '2026-11-21T04:16:15.470Z', action: `read${HOSTILE}`, tokens: 5 }],
        token_breakdown: { [`input${HOSTILE}`]: 5 },
        violations: [violation],
      },
    },
  ],
  '/v1/organizations': [200, { organizations: [{ id: 'org_1', name: `Acme${HOSTILE}`, role: 'owner' }] }],
  '/v1/organizations/org_1/teams': [
    200,
    { teams: [{ id: 'team_1', name: `Team${HOSTILE}`, member_count: 1, organization_id: 'org_1' }] },
  ],
  '/v1/organizations/org_1/policy': [
    200,
    {
      max_tokens_per_scan: null,
      max_tokens_per_request: null,
      allowed_tools: [`tool${HOSTILE}`],
      blocked_tools: [],
      blocked_actions: [`shell${HOSTILE}`],
    },
  ],
  '/v1/scans/scan_bad': [
    404,
    {
      error: {
        status: 404,
        code: 'not_found',
        message: `no scan${HOSTILE}\nerror: forged`,
        details: [{ field: `id${HOSTILE}`, message: `detail${HOSTILE}` }],
      },
    },
  ],
};

describe('terminal controls in what the server answers', () => {
  let server: Server;
  let at: string[];

  beforeAll(async () => {
    server = createServer((request, response) => {
      const path = (request.url ?? '').split('?')[0]!;
      const [status, body] = ANSWERS[path] ?? [
        404,
        { error: { status: 404, code: 'not_found', message: 'no route', details: [] } },
      ];
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(body));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    at = ['--url', `http://127.0.0.1:${(server.address() as AddressInfo).port}`, '--token', 'sdt_test'];
  });

  afterAll(async () => {
    await cleanupProcesses();
    await new Promise((resolve) => server.close(resolve));
  });

  function expectEscaped(result: CliResult, code = 0): void {
    expect(result.code, result.stderr).toBe(code);
    expect(rawControls(result.stdout)).toEqual([]);
    expect(rawControls(result.stderr)).toEqual([]);
  }

  it.each([
    ['scans get', ['scans', 'get', 'scan_1']],
    ['scans list', ['scans', 'list']],
    ['evidence', ['evidence', 'scan_1']],
    ['orgs list', ['orgs', 'list']],
    ['teams list', ['teams', 'list', 'org_1']],
    ['policy get', ['policy', 'get', 'org_1']],
  ])('%s prints every value escaped', async (_, args) => {
    const result = await runCli([...args, ...at]);
    expectEscaped(result);
    expect(result.stdout).toContain(HOSTILE_SHOWN);
  });

  it('a line break in a value cannot print a line of its own', async () => {
    const result = await runCli(['scans', 'get', 'scan_1', ...at]);
    expectEscaped(result);
    expect(result.stdout).not.toMatch(/^error: forged line/m);
    expect(result.stdout).toContain('\\u000aerror: forged line');
  });

  it('evidence escapes timeline actions, breakdown keys and violations', async () => {
    const result = await runCli(['evidence', 'scan_1', ...at]);
    expectEscaped(result);
    for (const shown of [`read${HOSTILE_SHOWN}`, `input${HOSTILE_SHOWN} 5`, `rule${HOSTILE_SHOWN}`]) {
      expect(result.stdout).toContain(shown);
    }
  });

  it('the server’s error message and details on stderr are escaped, one line each', async () => {
    const result = await runCli(['scans', 'get', 'scan_bad', ...at]);
    expectEscaped(result, 1);
    expect(result.stderr.trimEnd().split('\n')).toEqual([
      `error: no scan${HOSTILE_SHOWN}\\u000aerror: forged (404 not_found)`,
      `  - id${HOSTILE_SHOWN}: detail${HOSTILE_SHOWN}`,
    ]);
  });

  it('--json escapes what JSON.stringify leaves raw, and still parses to the server’s values', async () => {
    const result = await runCli(['scans', 'get', 'scan_1', '--json', ...at]);
    expectEscaped(result);
    expect(JSON.parse(result.stdout)).toEqual(scan);
  });
});
