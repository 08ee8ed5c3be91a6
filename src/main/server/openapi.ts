import type { FastifyDynamicSwaggerOptions } from '@fastify/swagger';
import { extensionKeywords, withOperationIds } from './openapi-document';

interface ObjectSchema {
  required?: string[];
  properties?: Record<string, { default?: unknown }>;
}

/**
 * Query parameters with a default are required in the validating schema (so handlers always see a
 * value) but optional to a client: say so in the document.
 */
export function optionalDefaults<S extends ObjectSchema>(schema: S): S {
  const required = schema.required?.filter((name) => schema.properties?.[name]?.default === undefined);
  return { ...schema, required };
}

interface RouteSchema {
  consumes?: readonly string[];
  body?: unknown;
  produces?: readonly string[];
  response?: Record<string, Record<string, unknown>>;
}

/**
 * A route's `produces` (a ZIP, an event stream, NDJSON) is what it answers on success; its errors
 * are JSON like every other's. @fastify/swagger would list the route's types for every status, so
 * the success responses carry their media types themselves and the rest fall back to JSON.
 */
export function successContentOnly<S extends RouteSchema>(schema: S): S {
  const { produces, response, ...rest } = schema;
  if (!produces || !response) return schema;
  const responses = Object.fromEntries(
    Object.entries(response).map(([status, { description, ...body }]) => [
      status,
      status.startsWith('2')
        ? { description, content: Object.fromEntries(produces.map((type) => [type, { schema: body }])) }
        : { description, ...body },
    ]),
  );
  return { ...rest, response: responses } as unknown as S;
}

/**
 * A route that consumes a binary type (an evidence ZIP) reads its body as a stream, with no schema
 * to validate it against; the document still says that a body of that type is expected.
 */
export function binaryBody<S extends RouteSchema>(schema: S): S {
  if (!schema.consumes || schema.body !== undefined) return schema;
  return {
    ...schema,
    body: { type: 'string', format: 'binary', description: `The ${schema.consumes.join(' or ')} body` },
  };
}

/** The OpenAPI 3.1 document is generated from the routes' own TypeBox schemas. */
export function openApiOptions(version: string): FastifyDynamicSwaggerOptions {
  return {
    transform: ({ schema, url }) => {
      const querystring = schema?.querystring as ObjectSchema | undefined;
      const described = querystring ? { ...schema, querystring: optionalDefaults(querystring) } : schema;
      return { url, schema: described && binaryBody(successContentOnly(described as RouteSchema)) };
    },
    transformObject: (document) => {
      // extensionKeywords builds a new tree, so the names added below touch no cached schema.
      const openapi = extensionKeywords(
        (document as { openapiObject: Parameters<typeof extensionKeywords>[0] }).openapiObject,
      ) as {
        paths?: Record<string, Record<string, Record<string, unknown>>>;
      };
      withOperationIds(openapi.paths ?? {});
      return openapi as never;
    },
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Scandesk /v1',
        version,
        license: { name: 'Proprietary (UNLICENSED)' },
        description: 'The local-first twin of the organizations, teams, scans and evidence service. See SPEC.md.',
      },
      servers: [{ url: 'http://127.0.0.1:4790' }],
      components: {
        securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'sdt_… token' } },
      },
      security: [{ bearer: [] }],
    },
  };
}
