import { Ajv, type ErrorObject } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';
import type { ErrorDetail } from '../../shared/api/errors';

// ajv-formats is CommonJS; under ESM its plugin may sit one `default` deeper.
const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ??
  addFormatsModule) as typeof addFormatsModule;

function makeAjv(coerceTypes: boolean | 'array'): Ajv {
  // removeAdditional stays off: unknown fields are refused (SPEC.md §1), never silently dropped.
  const ajv = new Ajv({ allErrors: true, coerceTypes, removeAdditional: false, useDefaults: true, strict: false });
  addFormats(ajv);
  return ajv;
}

// JSON bodies are typed already, so "5" is not 5 there; query strings and path parameters
// arrive as text and are coerced.
const bodyAjv = makeAjv(false);
const textAjv = makeAjv('array');

export const validatorCompiler: FastifySchemaCompiler<object> = ({ schema, httpPart }) =>
  (httpPart === 'body' ? bodyAjv : textAjv).compile(schema) as ReturnType<FastifySchemaCompiler<object>>;

/** One detail per ajv error, naming the field as a dotted path. */
export function detailsFromAjv(errors: ErrorObject[], part: string | undefined): ErrorDetail[] {
  return errors.map((error) => {
    const path = error.instancePath.split('/').slice(1);
    const params = error.params as { missingProperty?: string; additionalProperty?: string };
    if (params.missingProperty) path.push(params.missingProperty);
    if (params.additionalProperty) path.push(params.additionalProperty);
    const field = path.join('.') || part || 'body';
    const message = params.additionalProperty ? 'is not a known field' : (error.message ?? 'is invalid');
    return { field, message: error.keyword === 'pattern' ? PATTERN_MESSAGE : message };
  });
}

// A regular expression means nothing to a person; the name rule is the only pattern we use.
const PATTERN_MESSAGE = 'must not be only spaces or contain control characters';
