import { createConfig, lintFromString } from '@redocly/openapi-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../../helpers/assertions';
import { createTestContext, type TestContext } from '../../helpers/test-app';

// The endpoints of docs/contract/api.md#organizations through docs/contract/api.md#evidence, and
// docs/contract/api.md#users-and-tokens and docs/contract/api.md#remotes: each must exist and be described.
const ENDPOINTS = [
  'get /v1/me',
  'delete /v1/session',
  'get /v1/users',
  'post /v1/users',
  'get /v1/users/{user_id}/tokens',
  'post /v1/users/{user_id}/tokens',
  'post /v1/users/{user_id}/tokens/rotate',
  'get /v1/tokens/{token_id}',
  'delete /v1/tokens/{token_id}',
  'get /v1/organizations',
  'post /v1/organizations',
  'get /v1/organizations/{id}',
  'patch /v1/organizations/{id}',
  'delete /v1/organizations/{id}',
  'get /v1/organizations/{id}/members',
  'put /v1/organizations/{id}/members/{user_id}',
  'delete /v1/organizations/{id}/members/{user_id}',
  'get /v1/organizations/{org_id}/teams',
  'post /v1/organizations/{org_id}/teams',
  'get /v1/teams/{id}',
  'get /v1/teams/{id}/members',
  'post /v1/teams/{id}/members',
  'delete /v1/teams/{id}/members/{user_id}',
  'get /v1/organizations/{id}/policy',
  'put /v1/organizations/{id}/policy',
  'get /v1/scans',
  'post /v1/scans',
  'get /v1/scans/{id}',
  'get /v1/scans/{scan_id}/evidence',
  'get /v1/scans/{scan_id}/evidence/timeline/buckets',
  'get /v1/scans/{scan_id}/evidence/timeline',
  'get /v1/stats/tokens',
  'get /v1/remotes',
  'post /v1/remotes',
  'get /v1/remotes/{name}',
  'patch /v1/remotes/{name}',
  'delete /v1/remotes/{name}',
  'post /v1/remotes/{name}/test',
  'get /healthz',
];

const MiB = 1024 * 1024;

interface OpenApiDocument {
  openapi: string;
  paths: Record<
    string,
    Record<
      string,
      {
        requestBody?: { content: Record<string, { schema: Record<string, unknown> }> };
        responses: Record<string, unknown>;
      }
    >
  >;
}

describe('GET /v1/openapi.json', () => {
  let ctx: TestContext;
  let document: OpenApiDocument;
  beforeAll(async () => {
    ctx = await createTestContext();
    const response = await ctx.request({ method: 'GET', url: '/v1/openapi.json' });
    expect(response.statusCode).toBe(200);
    document = response.json();
  });
  afterAll(() => ctx.close());

  it('is OpenAPI 3.1 and describes every endpoint of the contract, with the error shape', () => {
    expect(document.openapi).toBe('3.1.0');
    const described = Object.entries(document.paths).flatMap(([path, operations]) =>
      Object.keys(operations).map((method) => `${method} ${path}`),
    );
    for (const endpoint of ENDPOINTS) expect(described).toContain(endpoint);
    for (const endpoint of ENDPOINTS.filter((e) => e.includes('/v1/'))) {
      const [method, path] = endpoint.split(' ') as [string, string];
      expect(Object.keys(document.paths[path]?.[method]?.responses ?? {})).toContain('4XX');
    }
  });

  it('carries the same schemas that validate requests', () => {
    const body = document.paths['/v1/organizations']?.post?.requestBody?.content['application/json']?.schema;
    expect(body).toMatchObject({
      type: 'object',
      additionalProperties: false,
      required: ['name'],
      properties: { name: { type: 'string', minLength: 1, maxLength: 100 } },
    });
  });

  it('shows query parameters that have a default as optional', () => {
    const parameters = (
      document.paths['/v1/scans']?.get as unknown as { parameters: { name: string; required?: boolean }[] }
    ).parameters;
    const byName = new Map(parameters.map((parameter) => [parameter.name, parameter.required ?? false]));
    expect(byName.get('limit')).toBe(false);
    expect(byName.get('offset')).toBe(false);
    expect(byName.get('since')).toBe(false);
  });

  it('says wherever `until` is taken that a date covers that whole UTC day', () => {
    const untils: string[] = [];
    for (const [path, operations] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        const { parameters } = operation as unknown as {
          parameters?: { name: string; description?: string; schema: { description?: string } }[];
        };
        const until = parameters?.find((parameter) => parameter.name === 'until');
        if (!until) continue;
        untils.push(`${method} ${path}`);
        expect(until.description ?? until.schema.description, `${method} ${path}`).toMatch(
          /includes that whole UTC day/,
        );
      }
    }
    expect(untils).toEqual(expect.arrayContaining(['get /v1/scans', 'get /v1/stats/tokens', 'get /v1/exports/scans']));
  });

  // Clients other than ours may want to make the identity check (docs/contract/auth.md#server-identity)
  // before they send a token: the document must say how.
  it('describes the identity check as public, with its required challenge and its proof', () => {
    const operation = document.paths['/v1/identity']?.get as unknown as
      | {
          security?: unknown[];
          parameters?: { in: string; name: string; required?: boolean; schema: { pattern?: string } }[];
          responses: Record<string, { content?: Record<string, { schema: Record<string, unknown> }> }>;
        }
      | undefined;
    expect(operation, 'GET /v1/identity is described').toBeDefined();
    expect(operation!.security).toEqual([]);
    expect(operation!.parameters).toEqual([
      expect.objectContaining({ in: 'query', name: 'challenge', required: true, schema: expect.anything() }),
    ]);
    expect(operation!.parameters![0]!.schema.pattern).toBe('^[0-9a-f]{32,128}$');
    expect(operation!.responses['200']?.content?.['application/json']?.schema).toMatchObject({
      required: ['proof'],
      properties: { proof: { type: 'string', pattern: '^[0-9a-f]{64}$' } },
    });
    expect(Object.keys(operation!.responses)).toContain('4XX');
  });

  it("passes Redocly's recommended rules with no errors, every operation named once", async () => {
    const config = await createConfig({ extends: ['recommended'] });
    const problems = await lintFromString({ source: JSON.stringify(document), absoluteRef: '/openapi.json', config });
    const errors = problems.filter((problem) => problem.severity === 'error');
    expect(errors.map((problem) => `${problem.ruleId}: ${problem.message} at ${problem.location[0]?.pointer}`)).toEqual(
      [],
    );
    const ids = Object.values(document.paths).flatMap((operations) =>
      Object.values(operations).map((operation) => (operation as { operationId?: string }).operationId),
    );
    expect(ids.every((id) => typeof id === 'string')).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    // The validator's words for a pattern stay in the document, as an extension tools accept.
    expect(JSON.stringify(document)).not.toContain('"errorMessage"');
    expect(JSON.stringify(document)).toContain('"x-error-message"');
  });

  it('lists errors as JSON everywhere, and a ZIP, a stream or NDJSON only for the success they are', () => {
    const contentTypes = (path: string, method: string, status: string) =>
      Object.keys(
        (document.paths[path]?.[method]?.responses[status] as { content?: Record<string, unknown> } | undefined)
          ?.content ?? {},
      );
    for (const [path, operations] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        for (const status of Object.keys(operation.responses).filter((s) => /^[45]/.test(s))) {
          expect(contentTypes(path, method, status), `${method} ${path} ${status}`).toEqual(['application/json']);
        }
      }
    }
    expect(contentTypes('/v1/evidence/exports', 'post', '200')).toEqual(['application/zip']);
    expect(contentTypes('/v1/scans/{scan_id}/evidence/download', 'get', '200')).toEqual(['application/zip']);
    expect(contentTypes('/v1/events', 'get', '200')).toEqual(['text/event-stream']);
  });

  it('says that an import takes a ZIP body', () => {
    const body = document.paths['/v1/evidence/imports']?.post?.requestBody as
      { required?: boolean; content: Record<string, unknown> } | undefined;
    expect(body?.required).toBe(true);
    expect(Object.keys(body?.content ?? {})).toEqual(['application/zip']);
  });

  it('states the body limit of every operation that takes a body, as the server enforces it', async () => {
    const limits: Record<string, number> = {};
    for (const [path, operations] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        if (!operation.requestBody) continue;
        const limit = (operation as unknown as Record<string, unknown>)['x-body-limit-bytes'];
        limits[`${method} ${path}`] = limit as number;
        expect(Object.keys(operation.responses), `${method} ${path}`).toContain('413');
        expect((operation as { description?: string }).description, `${method} ${path}`).toContain(
          `at most ${(limit as number) / MiB} MiB`,
        );
      }
    }
    expect(limits).toMatchObject({
      'post /v1/organizations': MiB,
      'put /v1/organizations/{id}/policy': MiB,
      'post /v1/evidence/exports': MiB,
      'post /v1/scans': 32 * MiB,
      'post /v1/evidence/imports': 512 * MiB,
    });
    // The number is the server's: one byte over it is refused, the limit itself is read.
    const padded = (bytes: number) => `{"name":"Acme"${' '.repeat(bytes - '{"name":"Acme"}'.length)}}`;
    const send = (bytes: number) =>
      ctx.request({
        method: 'POST',
        url: '/v1/organizations',
        headers: { 'content-type': 'application/json' },
        payload: padded(bytes),
      });
    expectError(await send(MiB + 1), 413, 'payload_too_large');
    expect((await send(MiB)).statusCode).toBe(201);
  });

  it('accepts no policy body larger than the JSON limit, however its text is escaped', () => {
    const body = document.paths['/v1/organizations/{id}/policy/preview']?.post?.requestBody?.content['application/json']
      ?.schema as {
      properties: { policy: { properties: Record<string, { maxItems?: number; anyOf?: { maxItems?: number }[] }> } };
    };
    const lists = body.properties.policy.properties;
    const items = (list: { maxItems?: number; anyOf?: { maxItems?: number }[] } | undefined) =>
      list?.maxItems ?? list?.anyOf?.find((option) => option.maxItems !== undefined)?.maxItems ?? Infinity;
    // Every character of a 100-character name as a surrogate pair of \u escapes: 12 bytes.
    const name = `"${'\\ud83d\\ude00'.repeat(100)}"`;
    const list = (n: number) => `[${Array.from({ length: n }, () => name).join(',')}]`;
    const largest =
      `{"policy":{"max_tokens_per_scan":9007199254740991,"max_tokens_per_request":9007199254740991,` +
      `"allowed_tools":${list(items(lists.allowed_tools))},"blocked_tools":${list(items(lists.blocked_tools))},` +
      `"blocked_actions":${list(items(lists.blocked_actions))}},` +
      `"since":"${'9'.repeat(64)}","until":"${'9'.repeat(64)}"}`;
    expect(Buffer.byteLength(largest)).toBeLessThanOrEqual(MiB);
  });

  it('needs a token like every /v1 path', async () => {
    expectError(await ctx.request({ method: 'GET', url: '/v1/openapi.json', as: null }), 401, 'unauthorized');
  });
});
