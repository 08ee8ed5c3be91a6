import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SUBMIT_BODY_LIMIT } from '../../../src/main/scans/scans.routes';
import { MAX_JSON_DEPTH } from '../../../src/shared/json-depth';
import { expectError, snapshotDatabase } from '../../helpers/assertions';
import { createTestContext, type TestContext } from '../../helpers/test-app';

// JSON.parse spent 6.6 s of the one thread on 32 MiB of nested `[` sent to POST /v1/scans; the
// parser now refuses nesting past MAX_JSON_DEPTH before parsing (docs/security.md).

const nested = (depth: number, inner = '0'): string => '['.repeat(depth) + inner + ']'.repeat(depth);

const scanBody = (timeline: string): string =>
  `{"tool":"claude-code","action":"refactor","tokens":1,"timeline":${timeline}}`;

describe('JSON bodies', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext();
  });
  afterAll(() => ctx.close());

  const post = (url: string, payload: string) =>
    ctx.request({ method: 'POST', url, headers: { 'content-type': 'application/json' }, payload });

  it('refuses a submission nested deeper than the limit as invalid_json naming the body, storing nothing', async () => {
    const before = await snapshotDatabase(ctx.db);
    const error = expectError(await post('/v1/scans', scanBody(nested(MAX_JSON_DEPTH))), 400, 'invalid_json');
    expect(error.message).toBe(`the body is nested more than ${MAX_JSON_DEPTH} levels deep`);
    expect(error.details).toEqual([{ field: 'body', message: `may nest at most ${MAX_JSON_DEPTH} levels` }]);
    expect(await snapshotDatabase(ctx.db)).toEqual(before);
  });

  it('refuses a body of nothing but `[` up to the submit limit the same way', async () => {
    const body = '['.repeat(SUBMIT_BODY_LIMIT - 1024);
    // Refused for its depth, after a few bytes, not for being unfinished after a whole parse.
    expect(expectError(await post('/v1/scans', body), 400, 'invalid_json').message).toMatch(/nested more than/);
  });

  it('passes nesting up to the limit on to validation', async () => {
    // The object is one level, the timeline array a second: this body nests exactly to the limit.
    const error = expectError(await post('/v1/scans', scanBody(nested(MAX_JSON_DEPTH - 1))), 400, 'validation_failed');
    expect(error.details[0]?.field).toMatch(/^timeline/);
  });

  it('guards every JSON route, not only submissions', async () => {
    expectError(await post('/v1/organizations', `{"name":${nested(100, '"x"')}}`), 400, 'invalid_json');
  });

  it('still refuses prototype poisoning and answers plain bad JSON as before', async () => {
    expectError(await post('/v1/organizations', '{"__proto__":{"admin":true},"name":"x"}'), 400, 'invalid_json');
    expectError(await post('/v1/organizations', '{"name":'), 400, 'invalid_json');
    const created = await post('/v1/organizations', '{"name":"Nested [{ in a string"}');
    expect(created.statusCode, created.body).toBe(201);
  });
});
