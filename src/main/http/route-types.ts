import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type {
  FastifyBaseLogger,
  FastifyInstance,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
} from 'fastify';
import type { Db } from '../db/index';

/** The Fastify instance routes are registered on: TypeBox schemas type the handlers. */
export type App = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>;

export interface RouteDeps {
  db: Db;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** An API route answered without authentication (docs/contract/auth.md#tokens names each). */
    public?: boolean;
  }
}
