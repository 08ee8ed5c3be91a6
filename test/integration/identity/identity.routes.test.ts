import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { identityProof } from '../../../src/main/identity/identity-proof';
import { ensureServerKey, readServerKey } from '../../../src/main/identity/server-key';
import { expectError } from '../../helpers/assertions';
import { createTestContext, type TestContext } from '../../helpers/test-app';

const CHALLENGE = 'ab'.repeat(32);

describe('GET /v1/identity', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext();
  });
  afterAll(() => ctx.close());

  it("answers anyone with the HMAC of the challenge under the data directory's key", async () => {
    const response = await ctx.request({ method: 'GET', url: `/v1/identity?challenge=${CHALLENGE}`, as: null });
    expect(response.statusCode, response.body).toBe(200);
    const key = readServerKey(ctx.dataDir)!;
    expect(key).toHaveLength(32);
    // An injected request has no socket end of its own: the proof covers an empty one.
    expect(response.json()).toEqual({ proof: identityProof(key, CHALLENGE, { address: '', port: 0 }) });
  });

  it('keeps the key across restarts: opening the workspace again does not replace it', () => {
    const before = readServerKey(ctx.dataDir);
    ensureServerKey(ctx.dataDir);
    expect(readServerKey(ctx.dataDir)).toEqual(before);
  });

  it.each([
    ['missing', ''],
    ['too short', `?challenge=${'a'.repeat(31)}`],
    ['too long', `?challenge=${'a'.repeat(129)}`],
    ['not lowercase hex', `?challenge=${'AB'.repeat(32)}`],
  ])('refuses a challenge that is %s', async (_why, query) => {
    expectError(await ctx.request({ method: 'GET', url: `/v1/identity${query}`, as: null }), 400, 'validation_failed');
  });
});
