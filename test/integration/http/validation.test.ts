import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ErrorCode } from '../../../src/shared/api/errors';
import { expectError, snapshotDatabase } from '../../helpers/assertions';
import { createTestContext, type TestContext, type TestUser } from '../../helpers/test-app';

let ctx: TestContext;
let member: TestUser;
let orgId: string;

beforeAll(async () => {
  ctx = await createTestContext();
  member = await ctx.createUser('member');
  const org = await ctx.request({ method: 'POST', url: '/v1/organizations', payload: { name: 'Acme' } });
  expect(org.statusCode, org.body).toBe(201);
  orgId = (org.json() as { id: string }).id;
  const put = await ctx.request({
    method: 'PUT',
    url: `/v1/organizations/${orgId}/members/${member.id}`,
    payload: { role: 'member' },
  });
  expect(put.statusCode, put.body).toBe(200);
});
afterAll(() => ctx.close());

/** The distinct fields an error's details name (one field may fail several rules). */
const namedFields = (details: { field?: string }[]): (string | undefined)[] =>
  [...new Set(details.map((detail) => detail.field))].sort();

/** The endpoints that take `{name}`, with the status a good name gets. */
const NAME_ENDPOINTS: { label: string; method: 'POST' | 'PATCH'; url: () => string; ok: number }[] = [
  { label: 'POST /v1/organizations', method: 'POST', url: () => '/v1/organizations', ok: 201 },
  { label: 'PATCH /v1/organizations/:id', method: 'PATCH', url: () => `/v1/organizations/${orgId}`, ok: 200 },
  { label: 'POST /v1/organizations/:id/teams', method: 'POST', url: () => `/v1/organizations/${orgId}/teams`, ok: 201 },
  { label: 'POST /v1/users', method: 'POST', url: () => '/v1/users', ok: 201 },
];

interface Case {
  label: string;
  /** A JSON value sent as the body, or raw text with its own Content-Type. */
  body: { json: unknown } | { raw: string; contentType?: string };
  status: number;
  code: ErrorCode;
  /** The fields the details must name; none for errors about the body as a whole. */
  fields: string[];
}

const invalidName = (label: string, name: unknown): Case => ({
  label,
  body: { json: { name } },
  status: 400,
  code: 'validation_failed',
  fields: ['name'],
});

const CASES: Case[] = [
  invalidName('empty name', ''),
  invalidName('101 characters', 'x'.repeat(101)),
  invalidName('101 characters, multi-byte', 'é'.repeat(101)),
  invalidName('only spaces', '     '),
  invalidName('only a tab', '\t'),
  invalidName('a NUL character', 'nul\u0000byte'),
  invalidName('a newline', 'two\nlines'),
  invalidName('a trailing newline', 'trailing\n'),
  invalidName('a BEL character', 'bell\u0007'),
  invalidName('a DEL character', 'del\u007f'),
  invalidName('a number', 42),
  invalidName('null', null),
  invalidName('an array', ['Acme']),
  invalidName('an object', { first: 'Acme' }),
  invalidName('a boolean', true),
  { label: 'missing name', body: { json: {} }, status: 400, code: 'validation_failed', fields: ['name'] },
  {
    label: 'an unknown field',
    body: { json: { name: 'Acme', nmae: 'typo' } },
    status: 400,
    code: 'validation_failed',
    fields: ['nmae'],
  },
  {
    label: 'a bad name and an unknown field',
    body: { json: { name: '', owner: 'me' } },
    status: 400,
    code: 'validation_failed',
    fields: ['name', 'owner'],
  },
  {
    label: 'an array body',
    body: { json: [{ name: 'Acme' }] },
    status: 400,
    code: 'validation_failed',
    fields: ['body'],
  },
  { label: 'a string body', body: { raw: '"Acme"' }, status: 400, code: 'validation_failed', fields: ['body'] },
  { label: 'a null body', body: { raw: 'null' }, status: 400, code: 'validation_failed', fields: ['body'] },
  { label: 'truncated JSON', body: { raw: '{"name": "Acme"' }, status: 400, code: 'invalid_json', fields: [] },
  { label: 'a trailing comma', body: { raw: '{"name": "Acme",}' }, status: 400, code: 'invalid_json', fields: [] },
  { label: 'an empty body', body: { raw: '' }, status: 400, code: 'invalid_json', fields: [] },
  {
    label: 'a 2 MiB body',
    body: { raw: JSON.stringify({ name: 'x'.repeat(2 * 1024 * 1024) }) },
    status: 413,
    code: 'payload_too_large',
    fields: [],
  },
  {
    label: 'Content-Type text/plain',
    body: { raw: '{"name":"Acme"}', contentType: 'text/plain' },
    status: 415,
    code: 'unsupported_media_type',
    fields: [],
  },
  {
    label: 'Content-Type application/xml',
    body: { raw: '<name>Acme</name>', contentType: 'application/xml' },
    status: 415,
    code: 'unsupported_media_type',
    fields: [],
  },
  {
    label: 'Content-Type application/x-www-form-urlencoded',
    body: { raw: 'name=Acme', contentType: 'application/x-www-form-urlencoded' },
    status: 415,
    code: 'unsupported_media_type',
    fields: [],
  },
  {
    label: 'Content-Type multipart/form-data',
    body: { raw: '--x\r\n\r\nAcme\r\n--x--', contentType: 'multipart/form-data; boundary=x' },
    status: 415,
    code: 'unsupported_media_type',
    fields: [],
  },
];

function injectBody(body: Case['body']): Pick<InjectOptions, 'payload' | 'headers'> {
  if ('json' in body) return { payload: JSON.stringify(body.json), headers: { 'content-type': 'application/json' } };
  return { payload: body.raw, headers: { 'content-type': body.contentType ?? 'application/json' } };
}

describe.each(NAME_ENDPOINTS)('$label refuses bad input and changes nothing', (endpoint) => {
  it.each(CASES)('$label → $status $code', async ({ body, status, code, fields }) => {
    const before = await snapshotDatabase(ctx.db);
    const response = await ctx.request({ method: endpoint.method, url: endpoint.url(), ...injectBody(body) });
    const error = expectError(response, status, code);
    expect(namedFields(error.details)).toEqual(
      fields.length > 0 ? [...fields].sort() : expect.not.arrayContaining(['name']),
    );
    for (const detail of error.details) expect(detail.message.length).toBeGreaterThan(0);
    expect(await snapshotDatabase(ctx.db)).toEqual(before);
  });
});

describe('the name rule accepts its limits', () => {
  it.each(NAME_ENDPOINTS)('$label accepts exactly 100 characters and stores names trimmed', async (endpoint) => {
    const hundred = `${endpoint.method}${'n'.repeat(100)}`.slice(0, 100);
    expect(hundred).toHaveLength(100);
    const response = await ctx.request({ method: endpoint.method, url: endpoint.url(), payload: { name: hundred } });
    expect(response.statusCode, response.body).toBe(endpoint.ok);

    const padded = `  ${endpoint.label.replace(/\W+/g, ' ').trim()} padded  `;
    const trimmed = await ctx.request({ method: endpoint.method, url: endpoint.url(), payload: { name: padded } });
    expect(trimmed.statusCode, trimmed.body).toBe(endpoint.ok);
    const created = trimmed.json() as { name?: string; user?: { name: string } };
    expect(created.user?.name ?? created.name).toBe(padded.trim());
  });
});

describe('PUT /v1/organizations/:id/members/:user_id', () => {
  const ROLE_CASES: { label: string; body: unknown; fields: string[] }[] = [
    { label: 'an unknown role', body: { role: 'boss' }, fields: ['role'] },
    { label: 'a role in capitals', body: { role: 'OWNER' }, fields: ['role'] },
    { label: 'an empty role', body: { role: '' }, fields: ['role'] },
    { label: 'a numeric role', body: { role: 1 }, fields: ['role'] },
    { label: 'a null role', body: { role: null }, fields: ['role'] },
    { label: 'a missing role', body: {}, fields: ['role'] },
    { label: 'an unknown field', body: { role: 'admin', team: 'x' }, fields: ['team'] },
  ];

  it.each(ROLE_CASES)('$label → 400 naming the field, nothing changed', async ({ body, fields }) => {
    const before = await snapshotDatabase(ctx.db);
    const response = await ctx.request({
      method: 'PUT',
      url: `/v1/organizations/${orgId}/members/${member.id}`,
      payload: JSON.stringify(body),
      headers: { 'content-type': 'application/json' },
    });
    const error = expectError(response, 400, 'validation_failed');
    expect(namedFields(error.details)).toEqual([...fields].sort());
    expect(await snapshotDatabase(ctx.db)).toEqual(before);
  });

  it('path parameters are validated too: one that cannot be an id names nothing (404)', async () => {
    const before = await snapshotDatabase(ctx.db);
    const response = await ctx.request({
      method: 'PUT',
      url: `/v1/organizations/${orgId}/members/${'u'.repeat(101)}`,
      payload: { role: 'admin' },
    });
    const error = expectError(response, 404, 'not_found');
    expect(namedFields(error.details)).toEqual(['user_id']);
    expect(await snapshotDatabase(ctx.db)).toEqual(before);
  });
});

describe('POST /v1/teams/:id/members', () => {
  it.each([
    { label: 'a missing user_id', body: {}, fields: ['user_id'] },
    { label: 'an empty user_id', body: { user_id: '' }, fields: ['user_id'] },
    { label: 'a numeric user_id', body: { user_id: 7 }, fields: ['user_id'] },
    { label: 'an unknown field', body: { user_id: 'usr_x', role: 'admin' }, fields: ['role'] },
  ])('$label → 400 naming the field, nothing changed', async ({ body, fields }) => {
    const team = await ctx.db.selectFrom('teams').select('id').where('organization_id', '=', orgId).executeTakeFirst();
    const teamId = team?.id ?? 'team_missing';
    const before = await snapshotDatabase(ctx.db);
    const response = await ctx.request({ method: 'POST', url: `/v1/teams/${teamId}/members`, payload: body });
    const error = expectError(response, 400, 'validation_failed');
    expect(namedFields(error.details)).toEqual([...fields].sort());
    expect(await snapshotDatabase(ctx.db)).toEqual(before);
  });
});
