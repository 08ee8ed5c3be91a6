// What outside tools need of the generated OpenAPI document that the route schemas do not say
// (pure, no I/O). Checked by @redocly/openapi-core's recommended rules in the suite.

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Keys whose value is a map of names to schemas: the names are data, not keywords. */
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas']);

/**
 * The validator's `errorMessage` (ajv-errors: a pattern's meaning in words) is not a JSON Schema
 * keyword, so OpenAPI 3.1 tools refuse it; in the document it is the extension `x-error-message`.
 */
export function extensionKeywords(value: Json, parentKey = ''): Json {
  if (Array.isArray(value)) return value.map((item) => extensionKeywords(item));
  if (value === null || typeof value !== 'object') return value;
  const names = SCHEMA_MAPS.has(parentKey);
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [
      !names && key === 'errorMessage' ? 'x-error-message' : key,
      extensionKeywords(item, names ? '' : key),
    ]),
  );
}

const METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);
const pascal = (word: string): string => word.charAt(0).toUpperCase() + word.slice(1);

/**
 * A stable operationId from the method and the path, for operations that have none:
 * `get /v1/organizations/{id}/members` → `getOrganizationsByIdMembers`.
 */
export function operationIdOf(method: string, path: string): string {
  const words = path
    .split('/')
    .filter((segment) => segment !== '' && segment !== 'v1')
    .map((segment) => {
      const parameter = /^\{(.+)\}$/.exec(segment)?.[1];
      return parameter
        ? `By${parameter.split(/[_-]/).map(pascal).join('')}`
        : segment.split(/[_.-]/).map(pascal).join('');
    });
  return method + words.join('');
}

/** Every operation with an operationId of its own. */
export function withOperationIds(paths: Record<string, Record<string, Record<string, unknown>>>): void {
  for (const [path, operations] of Object.entries(paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      if (METHODS.has(method) && operation.operationId === undefined)
        operation.operationId = operationIdOf(method, path);
    }
  }
}
