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

/** The OpenAPI 3.1 document is generated from the routes' own TypeBox schemas. */
export function openApiOptions(version: string): FastifyDynamicSwaggerOptions {
  return {
    transform: ({ schema, url }) => {
      const querystring = schema?.querystring as ObjectSchema | undefined;
      return { url, schema: querystring ? { ...schema, querystring: optionalDefaults(querystring) } : schema };
    },
    transformObject: (document) => {
      const openapi = extensionKeywords(
        JSON.parse(JSON.stringify((document as { openapiObject: unknown }).openapiObject)),
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
