/**
 * A schema's compiled function, compiled when it is first called rather than when it is made.
 * The server makes a validator for every part of every route and a serializer for every response
 * as it starts, which was most of `scandesk serve`'s start-up once modules were bundled; most
 * routes are never called in a run. A validator's `errors` (ajv's convention, which fastify reads
 * after a `false`) are those of the last call.
 */
export function compileOnFirstCall<F extends (...args: never[]) => unknown>(compile: () => F): F {
  let compiled: F | undefined;
  const call = function (this: unknown, ...args: Parameters<F>): ReturnType<F> {
    compiled ??= compile();
    const value = compiled.apply(this, args) as ReturnType<F>;
    (call as unknown as { errors?: unknown }).errors = (compiled as unknown as { errors?: unknown }).errors;
    return value;
  };
  return call as unknown as F;
}
