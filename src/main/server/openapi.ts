import type { FastifyDynamicSwaggerOptions } from '@fastify/swagger';

/** The OpenAPI 3.1 document is generated from the routes' own TypeBox schemas. */
export function openApiOptions(version: string): FastifyDynamicSwaggerOptions {
  return {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Scandesk /v1',
        version,
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
