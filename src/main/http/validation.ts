import { Ajv, type ErrorObject } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';
import type { ErrorDetail } from '../../shared/api/errors';
import { parseDate, parseDateTime } from '../../shared/time';
import { compileOnFirstCall } from './compile-on-first-call';

// ajv-formats is CommonJS; under ESM its plugin may sit one `default` deeper.
const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ??
  addFormatsModule) as typeof addFormatsModule;

/**
 * The one Ajv setup: every format the shared schemas use, and errors that carry their schema.
 * Requests coerce text parts (`coerceTypes`); documents read from elsewhere (evidence packages)
 * are taken as they are.
 */
export function makeAjv(coerceTypes: boolean | 'array'): Ajv {
  // removeAdditional stays off: unknown fields are refused (docs/contract/api.md#basics), never silently dropped.
  // verbose: errors carry their schema, whose `errorMessage` says in words what a pattern means.
  const ajv = new Ajv({
    allErrors: true,
    verbose: true,
    coerceTypes,
    removeAdditional: false,
    useDefaults: true,
    strict: false,
  });
  addFormats(ajv);
  // The standard formats, as the server reads them: a value passes exactly when the handler can
  // parse it (ajv-formats' own date-time also takes `+0530` offsets, which RFC 3339 does not).
  ajv.addFormat('date', (text: string) => parseDate(text) !== null);
  ajv.addFormat('date-time', (text: string) => parseDateTime(text) !== null);
  return ajv;
}

// JSON bodies are typed already, so "5" is not 5 there; query strings and path parameters
// arrive as text and are coerced.
const bodyAjv = makeAjv(false);
const textAjv = makeAjv('array');

export const validatorCompiler: FastifySchemaCompiler<object> = ({ schema, httpPart }) =>
  compileOnFirstCall(() => (httpPart === 'body' ? bodyAjv : textAjv).compile(schema)) as ReturnType<
    FastifySchemaCompiler<object>
  >;

/** The ajv errors that are mistakes of their own, one each; detailsFromAjv words them. */
export function distinctErrors(all: ErrorObject[]): ErrorObject[] {
  // A value that fits no branch of an `anyOf` is one mistake, worded by the anyOf, not one per branch.
  const unions = all.filter((error) => error.keyword === 'anyOf').map((error) => `${error.schemaPath}/`);
  // A bad object key comes twice: the key's own error, then `propertyNames`' "property name must
  // be valid", which says nothing more.
  return all.filter(
    (error) => error.keyword !== 'propertyNames' && !unions.some((union) => error.schemaPath.startsWith(union)),
  );
}

/** One detail per ajv error, naming the field as a dotted path. */
export function detailsFromAjv(all: ErrorObject[], part: string | undefined): ErrorDetail[] {
  const errors = distinctErrors(all);
  const details = errors.slice(0, MAX_DETAILS).map((error): ErrorDetail => {
    const path = error.instancePath.split('/').slice(1);
    const params = error.params as { missingProperty?: string; additionalProperty?: string };
    if (params.missingProperty) path.push(params.missingProperty);
    if (params.additionalProperty) path.push(params.additionalProperty);
    const field = path.join('.') || part || 'body';
    const explained = (error.parentSchema as { errorMessage?: unknown } | undefined)?.errorMessage;
    const message = params.additionalProperty
      ? 'is not a known field'
      : ['pattern', 'format', 'anyOf'].includes(error.keyword) && typeof explained === 'string'
        ? explained
        : (error.message ?? 'is invalid');
    // The key itself is not echoed: it is what was refused, control characters and all.
    return { field, message: error.propertyName === undefined ? message : `a key ${message}` };
  });
  // A 100,000-entry timeline with the same mistake everywhere must not answer with 100,000 details.
  if (errors.length > MAX_DETAILS) details.push({ message: `and ${errors.length - MAX_DETAILS} more problems` });
  return details;
}

const MAX_DETAILS = 20;
