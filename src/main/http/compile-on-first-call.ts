/**
 * A schema's compiled function (an ajv validator, a response serializer), compiled when it is
 * first called rather than when it is made. The server makes a validator for every part of every
 * route and a serializer for every response as it starts, which was most of `scandesk serve`'s
 * start-up once its modules were bundled, and most routes are never called in a run. A
 * validator's `errors` (ajv's convention, which fastify reads after a `false`) are those of the
 * last call. Only the first argument is passed on: what validators and serializers are called with.
 */
export function compileOnFirstCall<F extends (value: never) => unknown>(compile: () => F): F {
  let compiled: F | undefined;
  const call = (value: Parameters<F>[0]): ReturnType<F> => {
    const run = (compiled ??= compile());
    const result = run(value) as ReturnType<F>;
    (call as { errors?: unknown }).errors = (run as { errors?: unknown }).errors;
    return result;
  };
  return call as unknown as F;
}
