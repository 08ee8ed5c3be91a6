import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ErrorCode } from '../../../src/shared/api/errors';
import { ERROR_STATUS } from '../../../src/shared/api/errors';
import { expectError } from '../../helpers/assertions';
import { createTestContext, type TestContext, type TestUser } from '../../helpers/test-app';

/** What the rows may refer to: created once, before the walk. */
interface Fixtures {
  ctx: TestContext;
  /** An admin of `orgId`. */
  admin: TestUser;
  /** A plain member of `orgId`. */
  member: TestUser;
  /** A user in no organization. */
  outsider: TestUser;
  orgId: string;
  teamId: string;
}

type Request = InjectOptions & { as?: TestUser | null };

interface Row {
  name: string;
  request: (f: Fixtures) => Request;
  status: number;
  code: ErrorCode;
  /** Fields the details must name, in any order (validation errors). */
  fields?: string[];
  /** Further checks of this row's response. */
  check?: (response: LightMyRequestResponse) => void;
}

const json = (body: string): Pick<InjectOptions, 'payload' | 'headers'> => ({
  payload: body,
  headers: { 'content-type': 'application/json' },
});

const bearerChallenge = (response: LightMyRequestResponse): void => {
  expect(response.headers['www-authenticate']).toMatch(/^Bearer\b/);
};

const allows =
  (...methods: string[]) =>
  (response: LightMyRequestResponse): void => {
    const allow = String(response.headers.allow ?? '')
      .split(',')
      .map((method) => method.trim());
    expect(allow).toEqual(expect.arrayContaining(methods));
  };

const TWO_MIB_JSON = JSON.stringify({ name: 'x'.repeat(2 * 1024 * 1024) });

/** Every error path of the endpoints that exist: a new path is one more row. */
const ROWS: Row[] = [
  // 400 invalid_json
  {
    name: 'truncated JSON',
    request: () => ({ method: 'POST', url: '/v1/organizations', ...json('{"name": "Acme"') }),
    status: 400,
    code: 'invalid_json',
  },
  {
    name: 'not JSON at all',
    request: () => ({ method: 'POST', url: '/v1/organizations', ...json('name=Acme') }),
    status: 400,
    code: 'invalid_json',
  },
  {
    name: 'empty JSON body',
    request: () => ({ method: 'POST', url: '/v1/organizations', ...json('') }),
    status: 400,
    code: 'invalid_json',
  },
  {
    name: 'bad JSON on a nested route',
    request: (f) => ({ method: 'POST', url: `/v1/organizations/${f.orgId}/teams`, ...json('{,}') }),
    status: 400,
    code: 'invalid_json',
  },

  // 400 validation_failed
  {
    name: 'body: missing name',
    request: () => ({ method: 'POST', url: '/v1/organizations', payload: {} }),
    status: 400,
    code: 'validation_failed',
    fields: ['name'],
  },
  {
    name: 'body: wrong type and unknown field at once',
    request: () => ({ method: 'POST', url: '/v1/organizations', payload: { name: 5, colour: 'red' } }),
    status: 400,
    code: 'validation_failed',
    fields: ['name', 'colour'],
  },
  {
    name: 'body: not an object',
    request: () => ({ method: 'POST', url: '/v1/organizations', ...json('[]') }),
    status: 400,
    code: 'validation_failed',
    fields: ['body'],
  },
  {
    name: 'body: invalid role',
    request: (f) => ({
      method: 'PUT',
      url: `/v1/organizations/${f.orgId}/members/${f.member.id}`,
      payload: { role: 'boss' },
    }),
    status: 400,
    code: 'validation_failed',
    fields: ['role'],
  },
  {
    name: 'params: id too long: cannot be an id, so not found',
    request: () => ({ method: 'GET', url: `/v1/organizations/${'o'.repeat(150)}` }),
    status: 404,
    code: 'not_found',
    fields: ['id'],
  },
  {
    name: 'params: both ids too long: cannot be an id, so not found',
    request: () => ({ method: 'DELETE', url: `/v1/teams/${'t'.repeat(150)}/members/${'u'.repeat(150)}` }),
    status: 404,
    code: 'not_found',
    fields: ['id', 'user_id'],
  },

  // 401 unauthorized
  {
    name: 'no token',
    request: () => ({ method: 'GET', url: '/v1/organizations', as: null }),
    status: 401,
    code: 'unauthorized',
    check: bearerChallenge,
  },
  {
    name: 'unknown token',
    request: () => ({
      method: 'GET',
      url: '/v1/me',
      as: null,
      headers: { authorization: 'Bearer sdt_not-a-real-token-aaaaaaaaaaaaaaaaaaaaaaaaaaa' },
    }),
    status: 401,
    code: 'unauthorized',
    check: bearerChallenge,
  },
  {
    name: 'not a Bearer header',
    request: () => ({ method: 'GET', url: '/v1/me', as: null, headers: { authorization: 'Basic dXNlcjpwYXNz' } }),
    status: 401,
    code: 'unauthorized',
    check: bearerChallenge,
  },
  {
    name: 'no token on an unknown /v1 route (auth comes first)',
    request: () => ({ method: 'GET', url: '/v1/nothing-here', as: null }),
    status: 401,
    code: 'unauthorized',
    check: bearerChallenge,
  },

  // 403 forbidden
  {
    name: 'member renames the organization',
    request: (f) => ({
      method: 'PATCH',
      url: `/v1/organizations/${f.orgId}`,
      payload: { name: 'Mine now' },
      as: f.member,
    }),
    status: 403,
    code: 'forbidden',
  },
  {
    name: 'admin deletes the organization',
    request: (f) => ({ method: 'DELETE', url: `/v1/organizations/${f.orgId}`, as: f.admin }),
    status: 403,
    code: 'forbidden',
  },
  {
    name: 'member creates a team',
    request: (f) => ({
      method: 'POST',
      url: `/v1/organizations/${f.orgId}/teams`,
      payload: { name: 'Rogue' },
      as: f.member,
    }),
    status: 403,
    code: 'forbidden',
  },
  {
    name: 'non-owner lists users',
    request: (f) => ({ method: 'GET', url: '/v1/users', as: f.member }),
    status: 403,
    code: 'forbidden',
  },
  {
    name: 'foreign Host',
    request: () => ({ method: 'GET', url: '/v1/me', headers: { host: 'evil.example' } }),
    status: 403,
    code: 'forbidden',
  },
  {
    name: 'foreign Host without a token (refused before auth)',
    request: () => ({ method: 'GET', url: '/v1/me', as: null, headers: { host: 'evil.example:4790' } }),
    status: 403,
    code: 'forbidden',
  },
  {
    name: 'cross-site Origin',
    request: () => ({
      method: 'POST',
      url: '/v1/organizations',
      payload: { name: 'CSRF' },
      headers: { origin: 'http://evil.example' },
    }),
    status: 403,
    code: 'forbidden',
  },

  // 404 not_found
  {
    name: 'unknown /v1 route',
    request: () => ({ method: 'GET', url: '/v1/nothing-here' }),
    status: 404,
    code: 'not_found',
  },
  {
    name: 'unknown route outside /v1',
    request: () => ({ method: 'GET', url: '/nothing-here', as: null }),
    status: 404,
    code: 'not_found',
  },
  {
    name: 'unknown organization',
    request: () => ({ method: 'GET', url: '/v1/organizations/org_01UNKNOWN' }),
    status: 404,
    code: 'not_found',
  },
  {
    name: 'unknown team',
    request: () => ({ method: 'GET', url: '/v1/teams/team_01UNKNOWN' }),
    status: 404,
    code: 'not_found',
  },
  {
    name: 'organization not visible to a non-member',
    request: (f) => ({ method: 'GET', url: `/v1/organizations/${f.orgId}`, as: f.outsider }),
    status: 404,
    code: 'not_found',
  },
  {
    name: 'delete of an organization not visible to a non-member',
    request: (f) => ({ method: 'DELETE', url: `/v1/organizations/${f.orgId}`, as: f.outsider }),
    status: 404,
    code: 'not_found',
  },
  {
    name: 'team not visible to a non-member',
    request: (f) => ({ method: 'GET', url: `/v1/teams/${f.teamId}`, as: f.outsider }),
    status: 404,
    code: 'not_found',
  },
  {
    name: 'adding an unknown user to a team',
    request: (f) => ({ method: 'POST', url: `/v1/teams/${f.teamId}/members`, payload: { user_id: 'usr_01UNKNOWN' } }),
    status: 404,
    code: 'not_found',
  },
  {
    name: 'removing a non-member from a team',
    request: (f) => ({ method: 'DELETE', url: `/v1/teams/${f.teamId}/members/${f.outsider.id}` }),
    status: 404,
    code: 'not_found',
  },

  // 405 method_not_allowed
  {
    name: 'DELETE /v1/organizations',
    request: () => ({ method: 'DELETE', url: '/v1/organizations' }),
    status: 405,
    code: 'method_not_allowed',
    check: allows('GET', 'POST'),
  },
  {
    name: 'PUT /v1/organizations/:id',
    request: (f) => ({ method: 'PUT', url: `/v1/organizations/${f.orgId}`, payload: { name: 'x' } }),
    status: 405,
    code: 'method_not_allowed',
    check: allows('GET', 'PATCH', 'DELETE'),
  },
  {
    name: 'POST /v1/me',
    request: () => ({ method: 'POST', url: '/v1/me', payload: {} }),
    status: 405,
    code: 'method_not_allowed',
    check: allows('GET'),
  },

  // 409 conflict
  {
    name: 'duplicate team name (other case)',
    request: (f) => ({ method: 'POST', url: `/v1/organizations/${f.orgId}/teams`, payload: { name: 'PLATFORM' } }),
    status: 409,
    code: 'conflict',
  },
  {
    name: 'removing the last owner',
    request: (f) => ({ method: 'DELETE', url: `/v1/organizations/${f.orgId}/members/${f.ctx.owner.id}` }),
    status: 409,
    code: 'conflict',
  },
  {
    name: 'demoting the last owner',
    request: (f) => ({
      method: 'PUT',
      url: `/v1/organizations/${f.orgId}/members/${f.ctx.owner.id}`,
      payload: { role: 'admin' },
    }),
    status: 409,
    code: 'conflict',
  },

  // 413 payload_too_large
  {
    name: '2 MiB JSON body',
    request: () => ({ method: 'POST', url: '/v1/organizations', ...json(TWO_MIB_JSON) }),
    status: 413,
    code: 'payload_too_large',
  },

  // 415 unsupported_media_type
  {
    name: 'text/plain body',
    request: () => ({
      method: 'POST',
      url: '/v1/organizations',
      payload: '{"name":"Acme"}',
      headers: { 'content-type': 'text/plain' },
    }),
    status: 415,
    code: 'unsupported_media_type',
  },
  {
    name: 'application/xml body',
    request: () => ({
      method: 'POST',
      url: '/v1/organizations',
      payload: '<name>Acme</name>',
      headers: { 'content-type': 'application/xml' },
    }),
    status: 415,
    code: 'unsupported_media_type',
  },
];

describe('the error shape (docs/contract/errors.md#shape)', () => {
  let fixtures: Fixtures;

  beforeAll(async () => {
    const ctx = await createTestContext();
    const admin = await ctx.createUser('admin');
    const member = await ctx.createUser('member');
    const outsider = await ctx.createUser('outsider');
    const org = await ctx.request({ method: 'POST', url: '/v1/organizations', payload: { name: 'Acme' } });
    expect(org.statusCode, org.body).toBe(201);
    const orgId = (org.json() as { id: string }).id;
    for (const [user, role] of [
      [admin, 'admin'],
      [member, 'member'],
    ] as const) {
      const put = await ctx.request({
        method: 'PUT',
        url: `/v1/organizations/${orgId}/members/${user.id}`,
        payload: { role },
      });
      expect(put.statusCode, put.body).toBe(200);
    }
    const team = await ctx.request({
      method: 'POST',
      url: `/v1/organizations/${orgId}/teams`,
      payload: { name: 'Platform' },
    });
    expect(team.statusCode, team.body).toBe(201);
    fixtures = { ctx, admin, member, outsider, orgId, teamId: (team.json() as { id: string }).id };
  });
  afterAll(() => fixtures.ctx.close());

  it('every error path answers with the one error shape, status and code', async () => {
    // Every code but the ones these endpoints cannot produce is walked at least once.
    const walked = new Set(ROWS.map((row) => row.code));
    // A stalled upload (408) and the import caps (429) need a real socket and requests in flight:
    // test/integration/server/listen.test.ts and test/integration/evidence/import/uploads.test.ts walk them.
    // A 502 needs a remote that fails: test/integration/sync/remotes/remotes.routes.test.ts walks it.
    const unreachable: ErrorCode[] = [
      'bad_gateway',
      'invalid_package',
      'internal',
      'request_timeout',
      'too_many_requests',
    ];
    expect([...walked].sort()).toEqual(
      (Object.keys(ERROR_STATUS) as ErrorCode[]).filter((code) => !unreachable.includes(code)).sort(),
    );

    const failures: string[] = [];
    for (const row of ROWS) {
      try {
        const response = await fixtures.ctx.request(row.request(fixtures));
        const error = expectError(response, row.status, row.code);
        if (row.fields) {
          const named = error.details.map((detail) => detail.field);
          expect(named.sort()).toEqual([...row.fields].sort());
          expect(error.message.length).toBeGreaterThan(0);
        }
        row.check?.(response);
      } catch (thrown) {
        failures.push(`${row.name}: ${thrown instanceof Error ? thrown.message : String(thrown)}`);
      }
    }
    expect(failures).toEqual([]);
  });
});
