/**
 * The dense transfer of a Scandesk pull (`POST /v1/sync/scans`, docs/sync.md#transfer): a pulled
 * scan equals the team's in every field, its timeline included; a timeline too long for a line
 * comes as a package, whole, and the answer stays small; a hostile answer (bad JSON, a line over
 * the cap, a wrong shape, a colliding id, more lines than asked) is refused with the store
 * untouched and the scan named; an answer cut short stores nothing and leaves the cursor, so the
 * next sync fetches the scan.
 */
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Scan, ScanList } from '../../../src/shared/api/scans';
import { SYNC_LINE_ENTRIES_MAX, SYNC_LINE_MAX_BYTES } from '../../../src/shared/api/sync';
import { createOrg, putPolicy, submitScan } from '../../helpers/scan-fixtures';
import { addRemote, counts, startServed, syncNow, type ServedContext } from '../../helpers/sync-world';
import { createTestContext, type TestContext } from '../../helpers/test-app';

/** Rewrites the text of each `POST /v1/sync/scans` answer; anything else passes as it is. */
type Tamper = (answer: string) => string;

/** A proxy in front of the team whose dense answers `tamper` rewrites, or that has no dense route ('no route'). */
async function startTamperingProxy(
  target: string,
): Promise<{ url: string; tamper: Tamper | 'no route' | null; close(): Promise<void> }> {
  const upstream = new URL(target);
  const state: { tamper: Tamper | 'no route' | null } = { tamper: null };
  const server: Server = createServer((incoming, outgoing) => {
    const forward = httpRequest(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: incoming.method,
        path: incoming.url,
        headers: { ...incoming.headers, host: upstream.host },
      },
      (answer) => {
        const tamper = state.tamper;
        if (tamper === 'no route' && incoming.url === '/v1/sync/scans') {
          answer.resume();
          outgoing.writeHead(404, { 'content-type': 'application/json' });
          outgoing.end(JSON.stringify({ error: { code: 'not_found', message: 'Route not found', details: [] } }));
          return;
        }
        if (!tamper || tamper === 'no route' || incoming.url !== '/v1/sync/scans') {
          outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(outgoing);
          return;
        }
        const chunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => chunks.push(chunk));
        answer.on('end', () => {
          const { 'content-length': _length, 'transfer-encoding': _encoding, ...headers } = answer.headers;
          outgoing.writeHead(answer.statusCode ?? 502, headers);
          outgoing.end(tamper(Buffer.concat(chunks).toString('utf8')));
        });
      },
    );
    forward.on('error', () => outgoing.destroy());
    incoming.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(state, {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}

const lines = (answer: string): Record<string, unknown>[] =>
  answer
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
const unlines = (values: readonly unknown[]): string => values.map((value) => `${JSON.stringify(value)}\n`).join('');

/** A scan object and its evidence without what differs by store: ids, organization, source, origin. */
function portable(scan: Scan, evidence: { evidence: Record<string, unknown> }) {
  const { id: _id, organization_id: _org, source: _source, origin: _origin, violations, ...rest } = scan;
  const { violations: evidenceViolations, ...fields } = evidence.evidence as {
    violations: { id: string }[];
  } & Record<string, unknown>;
  const strip = (list: readonly { id: string }[]) => list.map(({ id: _vid, ...v }) => v);
  return { ...rest, violations: strip(violations), evidence: { ...fields, violations: strip(evidenceViolations) } };
}

describe('a pull by dense answers', () => {
  let team: ServedContext;
  let laptop: TestContext;
  let proxy: Awaited<ReturnType<typeof startTamperingProxy>>;
  let teamOrg: string;
  /** The team scan whose violation a colliding line borrows. */
  let first: Scan;

  const laptopScans = async () =>
    ((await laptop.request({ method: 'GET', url: '/v1/scans?limit=500' })).json() as ScanList).scans;
  const newScan = (action: string) => submitScan(team, { tool: 'curl', action, tokens: 3, organization_id: teamOrg });

  beforeAll(async () => {
    team = await startServed();
    teamOrg = await createOrg(team, 'Platform');
    await putPolicy(team, teamOrg, {
      max_tokens_per_scan: null,
      max_tokens_per_request: 2,
      allowed_tools: null,
      blocked_tools: ['curl'],
      blocked_actions: [],
    });
    proxy = await startTamperingProxy(team.url);
    laptop = await createTestContext();
    await addRemote(laptop, { name: 'team', url: proxy.url, token: team.owner.token });
  });
  afterAll(async () => {
    await laptop?.close();
    await proxy?.close();
    await team?.close();
  });

  it('stores each scan as the team has it, every field and its timeline', async () => {
    first = await submitScan(team, {
      tool: 'curl',
      action: 'fetch',
      tokens: 12,
      organization_id: teamOrg,
      token_breakdown: { input: 7, output: 5 },
      timeline: [
        { timestamp: '2026-11-01T10:00:00.000Z', action: 'fetch', tokens: 3 },
        // What JSON escapes, as the store writes the timeline's text: quotes, a backslash, non-ASCII.
        { timestamp: '2026-11-01T10:00:01.250Z', action: 'parse "x" \\ é ✓', tokens: 9 },
      ],
    });
    await submitScan(team, { tool: 'vim', action: 'edit', tokens: 0 });
    const { summary } = await syncNow(laptop, 'team');
    expect(counts(summary)).toMatchObject({ outcome: 'done', new: 2 });

    const team_ = await Promise.all(
      ((await team.request({ method: 'GET', url: '/v1/scans?limit=50' })).json() as ScanList).scans.map(
        async ({ id }) => {
          const scan = (await team.request({ method: 'GET', url: `/v1/scans/${id}` })).json() as Scan;
          const evidence = (await team.request({ method: 'GET', url: `/v1/scans/${id}/evidence` })).json();
          return [id, portable(scan, evidence)] as const;
        },
      ),
    );
    const here = new Map(
      await Promise.all(
        (await laptopScans()).map(async ({ id }) => {
          const scan = (await laptop.request({ method: 'GET', url: `/v1/scans/${id}` })).json() as Scan;
          const evidence = (await laptop.request({ method: 'GET', url: `/v1/scans/${id}/evidence` })).json();
          expect(scan.source).toBe('pulled');
          return [scan.origin!.id, portable(scan, evidence)] as const;
        }),
      ),
    );
    expect(here.size).toBe(2);
    for (const [id, scan] of team_) expect(here.get(id), id).toEqual(scan);
    expect(here.get(first.id)!.evidence).toMatchObject({ request_count: 2, total_tokens: 12 });
    const { timeline } = here.get(first.id)!.evidence as unknown as { timeline: { action: string }[] };
    expect(timeline.map((entry) => entry.action)).toEqual(['fetch', 'parse "x" \\ é ✓']);
    expect((here.get(first.id)!.violations as unknown[]).length).toBeGreaterThan(0);
  });

  it('fetches a timeline too long for a line as a package, whole, and the answer stays small', async () => {
    const entries = SYNC_LINE_ENTRIES_MAX + 1;
    const timeline = Array.from({ length: entries }, (_, n) => ({
      timestamp: new Date(Date.UTC(2026, 10, 2) + n * 1000).toISOString(),
      action: 'step',
      tokens: 1,
    }));
    const long = await submitScan(team, { tool: 'vim', action: 'long', tokens: entries, timeline });
    const answer = await team.request({ method: 'POST', url: '/v1/sync/scans', payload: { scan_ids: [long.id] } });
    expect(answer.statusCode).toBe(200);
    expect(lines(answer.body)).toEqual([{ id: long.id, skipped: 'package' }]);
    expect(answer.rawPayload.length).toBeLessThan(200);

    const { summary } = await syncNow(laptop, 'team');
    expect(counts(summary)).toMatchObject({ outcome: 'done', new: 1 });
    const here = (await laptopScans()).find((scan) => scan.action === 'long')!;
    const evidence = (await laptop.request({ method: 'GET', url: `/v1/scans/${here.id}/evidence` })).json() as {
      evidence: { request_count: number; total_tokens: number };
    };
    expect(evidence.evidence).toMatchObject({ request_count: entries, total_tokens: entries });
  });

  it('answers a line per asked id in the order asked, gone for one it cannot show', async () => {
    const scan = await newScan('ordered');
    const answer = await team.request({
      method: 'POST',
      url: '/v1/sync/scans',
      payload: { scan_ids: ['scan_nosuchone', scan.id] },
    });
    const [gone, line] = lines(answer.body);
    expect(gone).toEqual({ id: 'scan_nosuchone', skipped: 'gone' });
    expect(line).toMatchObject({
      scan: { id: scan.id },
      evidence: { request_count: 1 },
      timeline: [[expect.any(Number), 'ordered', 3]],
    });
    expect((await syncNow(laptop, 'team')).summary.pulled.new).toBe(1);
  });

  const hostile: [string, Tamper, RegExp][] = [
    ['a line that is not JSON', (answer) => answer.replace(/^\{/, '{,'), /not UTF-8 JSON/],
    [
      'a line over the cap',
      (answer) => `${JSON.stringify({ pad: 'x'.repeat(SYNC_LINE_MAX_BYTES) })}\n${answer}`,
      /longer than/,
    ],
    [
      'a line of the wrong shape',
      (answer) => unlines(lines(answer).map((line) => ({ ...line, scan: { ...(line.scan as object), tokens: -1 } }))),
      /tokens/,
    ],
    [
      'a timeline entry of the wrong shape',
      (answer) => unlines(lines(answer).map((line) => ({ ...line, timeline: [[0, 'step', '3']] }))),
      /timeline/,
    ],
    [
      'a violation id already taken here',
      (answer) =>
        unlines(
          lines(answer).map((line) => {
            const scan = line.scan as Scan;
            const violations = scan.violations.map((v) => ({ ...v, id: first.violations[0]!.id }));
            return { ...line, scan: { ...scan, violations } };
          }),
        ),
      /in use|taken|twice/,
    ],
    ['more lines than asked', (answer) => answer + answer, /more lines than/],
  ];

  it.each(hostile)('refuses %s, stores nothing of it, and names the scan', async (_what, tamper, why) => {
    const before = (await laptopScans()).length;
    const scan = await newScan('hostile');
    proxy.tamper = tamper;
    try {
      const { summary } = await syncNow(laptop, 'team');
      expect(summary.outcome).toBe('partial');
      expect(summary.errors).toEqual([{ what: scan.id, why: expect.stringMatching(why) }]);
      expect(summary.pulled.new).toBe(0);
    } finally {
      proxy.tamper = null;
    }
    expect((await laptopScans()).length).toBe(before);
  });

  it('stores nothing of an answer cut short, and the next sync fetches it', async () => {
    const before = (await laptopScans()).length;
    await newScan('cut');
    proxy.tamper = (answer) => answer.slice(0, answer.length - 10);
    try {
      const { summary } = await syncNow(laptop, 'team');
      expect(summary.outcome).toBe('partial');
      expect(summary.errors).toEqual([{ what: 'pull', why: expect.stringContaining('ended after 0 of 1 lines') }]);
    } finally {
      proxy.tamper = null;
    }
    expect((await laptopScans()).length).toBe(before);
    const { summary } = await syncNow(laptop, 'team');
    expect(counts(summary)).toMatchObject({ outcome: 'done', new: 1 });
    expect((await laptopScans()).map((scan) => scan.action)).toContain('cut');
  });

  it('pulls by packages alone from a Scandesk without the dense route', async () => {
    await newScan('older');
    proxy.tamper = 'no route';
    try {
      const { summary } = await syncNow(laptop, 'team');
      expect(counts(summary)).toMatchObject({ outcome: 'done', new: 1 });
    } finally {
      proxy.tamper = null;
    }
    expect((await laptopScans()).map((scan) => scan.action)).toContain('older');
  });
});
