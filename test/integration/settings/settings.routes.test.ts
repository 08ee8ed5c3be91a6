import { readFileSync, rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tokenFile } from '../../../src/main/workspace/data-dir';
import type { Settings } from '../../../src/shared/api/settings';
import { expectError } from '../../helpers/assertions';
import { createTestContext, type TestContext } from '../../helpers/test-app';

describe('GET /v1/settings', () => {
  let ctx: TestContext;

  beforeAll(async () => {
    ctx = await createTestContext({ version: '9.8.7' });
  });
  afterAll(async () => {
    await ctx.close();
  });

  it('gives the workspace owner, signed in with the token, the data directory, version and the token', async () => {
    const response = await ctx.request({ method: 'GET', url: '/v1/settings' });
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json() as Settings;
    const token = readFileSync(tokenFile(ctx.dataDir), 'utf8').trim();
    expect(body).toEqual({
      data_dir: ctx.dataDir,
      version: '9.8.7',
      token,
      token_hint: `${token.slice(0, 4)}…${token.slice(-4)}`,
    });
    expect(body.token).toBe(ctx.owner.token);
    expect(response.headers['cache-control']).toBe('no-store');
  });

  it('never hands the token to a browser session, only its hint', async () => {
    const cookie = await ctx.signIn();
    const response = await ctx.request({ method: 'GET', url: '/v1/settings', as: null, headers: { cookie } });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.body).not.toContain(ctx.owner.token);
    expect(response.json()).toMatchObject({ token: null, token_hint: `sdt_…${ctx.owner.token.slice(-4)}` });
  });

  it('refuses anyone else', async () => {
    const other = await ctx.createUser('other');
    const { message } = expectError(
      await ctx.request({ method: 'GET', url: '/v1/settings', as: other }),
      403,
      'forbidden',
    );
    expect(message).toMatch(/owner/);
    expectError(await ctx.request({ method: 'GET', url: '/v1/settings', as: null }), 401, 'unauthorized');
  });

  it('answers token null when the token file is gone', async () => {
    rmSync(tokenFile(ctx.dataDir));
    const response = await ctx.request({ method: 'GET', url: '/v1/settings' });
    expect(response.statusCode, response.body).toBe(200);
    expect((response.json() as Settings).token).toBeNull();
  });
});
