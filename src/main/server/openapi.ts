import type { FastifyDynamicSwaggerOptions } from '@fastify/swagger';
import { ErrorBodySchema } from '../../shared/api/errors';
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
  description?: string;
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

const MiB = 1024 * 1024;

/** `1 MiB (1,048,576 bytes)`: the unit people read, and the number a validator compares. */
export function byteSize(bytes: number): string {
  const exact = `${bytes.toLocaleString('en-US')} bytes`;
  return bytes % MiB === 0 ? `${bytes / MiB} MiB (${exact})` : exact;
}

/**
 * Every operation that takes a body says how large it may be (`x-body-limit-bytes`, the
 * description, a documented 413): the byte limit is refused before the schema is applied, so a
 * validator that knew only the schema would take the 413 for a fault.
 */
export function withBodyLimit<S extends RouteSchema>(schema: S, limit: number): S {
  if (schema.body === undefined) return schema;
  const said = `The body may be at most ${byteSize(limit)}; a larger one is answered 413 \`payload_too_large\`.`;
  return {
    ...schema,
    description: schema.description === undefined ? said : `${schema.description}\n\n${said}`,
    'x-body-limit-bytes': limit,
    response: {
      ...schema.response,
      413: { ...ErrorBodySchema, description: `The body is larger than ${byteSize(limit)}` },
    },
  };
}

/**
 * The OpenAPI 3.1 document is generated from the routes' own TypeBox schemas. `jsonBodyLimit` is
 * the server's limit for a route that declares none of its own.
 */
export function openApiOptions(version: string, jsonBodyLimit: number): FastifyDynamicSwaggerOptions {
  return {
    transform: ({ schema, url, route }) => {
      const querystring = schema?.querystring as ObjectSchema | undefined;
      const described = querystring ? { ...schema, querystring: optionalDefaults(querystring) } : schema;
      if (!described) return { url, schema: described };
      const withBody = binaryBody(successContentOnly(described as RouteSchema));
      return { url, schema: withBodyLimit(withBody, route.bodyLimit ?? jsonBodyLimit) };
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
        description:
          'The local-first twin of the organizations, teams, scans and evidence service. ' +
          'The contract it follows is docs/contract/README.md in its repository.',
      },
      servers: [{ url: 'http://127.0.0.1:4790' }],
      components: {
        securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'sdt_… token' } },
      },
      security: [{ bearer: [] }],
    },
  };
}
