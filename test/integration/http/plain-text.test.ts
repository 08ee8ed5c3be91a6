import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isPlainText } from '../../../src/shared/plain-text';
import { expectError } from '../../helpers/assertions';
import { createTestContext, type TestContext } from '../../helpers/test-app';

// Text the server stores and shows again may carry no control character (C0, DEL, C1) and no
// bidirectional override: a terminal obeys the first (OSC 52 writes the clipboard), the second
// disguises what a reader sees. Every field is refused with 400 validation_failed naming it.

const OSC52 = '\u001b]52;c;Y3VybCBldmlsLmV4YW1wbGUgfCBzaA==\u0007';
const HOSTILE = [
  ['OSC 52', `x${OSC52}`],
  ['CSI as one C1 character', 'x\u009b2J'],
  ['DEL', 'x\u007f'],
  ['a line break', 'x\nerror: forged'],
  ['an RTL override', 'x\u202egpj.exe'],
  ['an isolate', '\u2066x\u2069'],
] as const;

const scan = (extra: object) => ({ tool: 'cursor', action: 'chat', tokens: 3, ...extra });

describe('control characters and bidirectional overrides at the API', () => {
  let ctx: TestContext;
  let orgId: string;
  beforeAll(async () => {
    ctx = await createTestContext();
    const org = await ctx.request({ method: 'POST', url: '/v1/organizations', payload: { name: 'Acme' } });
    orgId = (org.json() as { id: string }).id;
  });
  afterAll(() => ctx.close());

  /** 400 validation_failed with a detail naming `field`, and nothing echoing the value raw. */
  function expectRefused(response: Awaited<ReturnType<TestContext['request']>>, field: string): void {
    const error = expectError(response, 400, 'validation_failed');
    expect(error.details.map((detail) => detail.field)).toContain(field);
    expect(isPlainText(response.body)).toBe(true);
  }

  describe.each(HOSTILE)('%s', (_, text) => {
    it('in a token_breakdown key', async () => {
      const response = await ctx.request({
        method: 'POST',
        url: '/v1/scans',
        payload: scan({ token_breakdown: { input: 1, [text]: 2 } }),
      });
      expectRefused(response, 'token_breakdown');
    });

    it('in the tool, the action and a timeline entry action', async () => {
      expectRefused(await ctx.request({ method: 'POST', url: '/v1/scans', payload: scan({ tool: text }) }), 'tool');
      expectRefused(await ctx.request({ method: 'POST', url: '/v1/scans', payload: scan({ action: text }) }), 'action');
      const timeline = [
        { timestamp: '2026-11-21T04:16:15.470Z', action: 'read', tokens: 1 },
        { timestamp: '2026-11-21T04:16:16.470Z', action: text, tokens: 2 },
      ];
      expectRefused(
        await ctx.request({ method: 'POST', url: '/v1/scans', payload: scan({ timeline }) }),
        'timeline.1.action',
      );
    });

    it('in organization and team names', async () => {
      expectRefused(
        await ctx.request({ method: 'POST', url: '/v1/organizations', payload: { name: `Acme ${text}` } }),
        'name',
      );
      expectRefused(
        await ctx.request({ method: 'PATCH', url: `/v1/organizations/${orgId}`, payload: { name: `Acme ${text}` } }),
        'name',
      );
      expectRefused(
        await ctx.request({
          method: 'POST',
          url: `/v1/organizations/${orgId}/teams`,
          payload: { name: `Team ${text}` },
        }),
        'name',
      );
    });

    it('in policy tool and action lists', async () => {
      const policy = {
        max_tokens_per_scan: null,
        max_tokens_per_request: null,
        allowed_tools: null,
        blocked_tools: ['curl', text],
        blocked_actions: [],
      };
      expectRefused(
        await ctx.request({ method: 'PUT', url: `/v1/organizations/${orgId}/policy`, payload: policy }),
        'blocked_tools.1',
      );
    });
  });

  it('says what is wrong with a key without echoing it', async () => {
    const response = await ctx.request({
      method: 'POST',
      url: '/v1/scans',
      payload: scan({ token_breakdown: { [`in${OSC52}`]: 1 } }),
    });
    const error = expectError(response, 400, 'validation_failed');
    expect(error.details).toEqual([
      { field: 'token_breakdown', message: 'a key must not contain control characters or bidirectional overrides' },
    ]);
  });

  it('holds breakdown keys to 1–100 characters, which the key schema alone never did', async () => {
    for (const key of ['', 'k'.repeat(101)]) {
      const response = await ctx.request({
        method: 'POST',
        url: '/v1/scans',
        payload: scan({ token_breakdown: { [key]: 1 } }),
      });
      expectRefused(response, 'token_breakdown');
    }
    const fine = await ctx.request({
      method: 'POST',
      url: '/v1/scans',
      payload: scan({ token_breakdown: { ['k'.repeat(100)]: 1, 'Über 名前': 2 } }),
    });
    expect(fine.statusCode, fine.body).toBe(201);
  });

  it('still takes text that is only unusual', async () => {
    const response = await ctx.request({
      method: 'POST',
      url: '/v1/scans',
      payload: scan({ tool: 'Ünïcødé 名前 🚀', action: 'a\u200bb', token_breakdown: { 'cache read': 1 } }),
    });
    expect(response.statusCode, response.body).toBe(201);
  });
});
