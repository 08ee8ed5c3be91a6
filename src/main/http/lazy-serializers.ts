import { SerializerSelector, type SerializerFactory } from '@fastify/fast-json-stringify-compiler';
import { compileOnFirstCall } from './compile-on-first-call';

const defaultFactory = SerializerSelector();

/**
 * Fastify's own response serializers (fast-json-stringify, with the same options and shared
 * schemas), each compiled at its first response instead of for every route as the server starts.
 */
export const lazySerializers: SerializerFactory = (externalSchemas, options) => {
  const compile = defaultFactory(externalSchemas, options);
  return (route) => compileOnFirstCall(() => compile(route));
};
