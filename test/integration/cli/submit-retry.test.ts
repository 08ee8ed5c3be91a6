/**
 * `scandesk submit` sends its own Idempotency-Key and repeats it when the answer is lost
 * (docs/contract/api.md#idempotent-submit), against the in-process app of the run's backend behind
 * a socket that cuts the connection after the server has stored the scan.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { main } from '../../../src/cli/index';
import { EXIT } from '../../../src/cli/usage-error';
import { createTestContext, type TestContext } from '../../helpers/test-app';

describe('scandesk submit, its answer lost', () => {
  let ctx: TestContext;
  let server: Server;
  let url: string;
  /** What each POST /v1/scans carried and how it was answered. */
  let posts: { key: string | undefined; status: number }[];
  /** How many answers to POST /v1/scans are cut, after the app has handled them. */
  let cuts: number;
  let gatewayErrors: number;
  let out: string;

  beforeAll(async () => {
    ctx = await createTestContext();
    server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        void (async () => {
          const isSubmit = request.method === 'POST' && request.url === '/v1/scans';
          if (isSubmit && gatewayErrors > 0) {
            gatewayErrors -= 1;
            posts.push({ key: request.headers['idempotency-key'] as string | undefined, status: 502 });
            response.writeHead(502).end();
            return;
          }
          const answer = await ctx.app.inject({
            method: request.method as 'GET',
            url: request.url!,
            headers: request.headers as IncomingHttpHeaders & Record<string, string>,
            payload: Buffer.concat(chunks),
          });
          if (isSubmit)
            posts.push({ key: request.headers['idempotency-key'] as string | undefined, status: answer.statusCode });
          if (isSubmit && cuts > 0) {
            cuts -= 1;
            request.socket.destroy();
            return;
          }
          response.writeHead(answer.statusCode, answer.headers as Record<string, string>).end(answer.rawPayload);
        })();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await new Promise((resolve) => server?.close(resolve));
    await ctx?.close();
  });

  beforeEach(() => {
    posts = [];
    cuts = 0;
    gatewayErrors = 0;
    out = '';
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => ((out += String(chunk)), true));
    vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  const submit = (tool: string, ...more: string[]) =>
    main([
      'submit',
      '--url',
      url,
      '--token',
      ctx.owner.token,
      '--tool',
      tool,
      '--action',
      'edit',
      '--tokens',
      '7',
      ...more,
    ]);
  const stored = async (tool: string) =>
    (await ctx.db.selectFrom('scans').select('id').where('tool', '=', tool).execute()).map((row) => row.id);

  it('sends the same key again after a cut answer, and the scan is stored once', async () => {
    cuts = 1;
    expect(await submit('cut-once')).toBe(EXIT.ok);
    const ids = await stored('cut-once');
    expect(ids).toHaveLength(1);
    expect(out).toContain(`submitted ${ids[0]}`);
    expect(posts.map((post) => post.status)).toEqual([201, 200]);
    expect(posts[0]!.key).toMatch(/^cli:[0-9a-f-]{36}$/);
    expect(posts[1]!.key).toBe(posts[0]!.key);
  });

  it("sends again after a gateway's 502; two runs have two keys", async () => {
    gatewayErrors = 1;
    expect(await submit('gateway')).toBe(EXIT.ok);
    expect(await submit('gateway')).toBe(EXIT.ok);
    expect(await stored('gateway')).toHaveLength(2);
    expect(posts.map((post) => post.status)).toEqual([502, 201, 201]);
    expect(posts[1]!.key).toBe(posts[0]!.key);
    expect(posts[2]!.key).not.toBe(posts[1]!.key);
  });

  it('gives up after three sends, and a run repeated with --idempotency-key stores nothing more', async () => {
    cuts = 3;
    expect(await submit('cut-thrice', '--idempotency-key', 'nightly-2026-11-27')).toBe(EXIT.failed);
    expect(posts.map((post) => post.status)).toEqual([201, 200, 200]);
    expect(await submit('cut-thrice', '--idempotency-key', 'nightly-2026-11-27')).toBe(EXIT.ok);
    expect(posts.at(-1)).toEqual({ key: 'nightly-2026-11-27', status: 200 });
    expect(await stored('cut-thrice')).toHaveLength(1);
  });
});
