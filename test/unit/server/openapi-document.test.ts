import { describe, expect, it } from 'vitest';
import { extensionKeywords, operationIdOf, withOperationIds } from '../../../src/main/server/openapi-document';

describe('extensionKeywords', () => {
  it('turns the errorMessage keyword into x-error-message at any depth, but not a property named so', () => {
    const schema = {
      type: 'object',
      properties: {
        id: { type: 'string', pattern: '^a$', errorMessage: 'must be a' },
        errorMessage: { type: 'string', errorMessage: 'a property of that name' },
      },
      anyOf: [{ type: 'string', errorMessage: 'in a list too' }],
    };
    expect(extensionKeywords(schema)).toEqual({
      type: 'object',
      properties: {
        id: { type: 'string', pattern: '^a$', 'x-error-message': 'must be a' },
        errorMessage: { type: 'string', 'x-error-message': 'a property of that name' },
      },
      anyOf: [{ type: 'string', 'x-error-message': 'in a list too' }],
    });
  });
});

describe('operationIdOf', () => {
  it('names an operation by its method and path, parameters as By…', () => {
    expect(operationIdOf('get', '/v1/scans')).toBe('getScans');
    expect(operationIdOf('delete', '/v1/organizations/{id}/members/{user_id}')).toBe(
      'deleteOrganizationsByIdMembersByUserId',
    );
    expect(operationIdOf('get', '/v1/openapi.json')).toBe('getOpenapiJson');
    expect(operationIdOf('get', '/healthz')).toBe('getHealthz');
  });

  it('keeps an operationId a route gave itself, and leaves non-operations alone', () => {
    const paths = { '/v1/x': { get: { operationId: 'mine' }, post: {}, parameters: {} } };
    withOperationIds(paths as never);
    expect(paths['/v1/x']).toEqual({ get: { operationId: 'mine' }, post: { operationId: 'postX' }, parameters: {} });
  });
});
