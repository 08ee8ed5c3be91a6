/**
 * Values for a JSON Schema as an outside tool reads it (Schemathesis, say): every keyword taken at
 * its standard meaning, formats in their RFC languages, nothing known of our own code. `valid`
 * draws values the schema accepts, `invalid` values that break exactly one of its rules; both are
 * checked against the schema by an independent Ajv (standard formats only) before use.
 */
import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import fc from 'fast-check';

export type Schema = Record<string, unknown>;

const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ??
  addFormatsModule) as typeof addFormatsModule;

/** The reference reader of schemas: standard formats only, our `x-` keywords ignored. */
const referenceAjv = new Ajv({ strict: false, allErrors: false, validateFormats: true });
addFormats(referenceAjv);

const compiled = new WeakMap<Schema, ValidateFunction>();
const validatorOf = (schema: Schema): ValidateFunction => {
  let validate = compiled.get(schema);
  if (!validate) compiled.set(schema, (validate = referenceAjv.compile(schema)));
  return validate;
};

const accepts = (schema: Schema, value: unknown): boolean => validatorOf(schema)(value) as boolean;

/** Why the schema refuses `value` (its first complaint), or null when it accepts it. */
export function refusal(schema: Schema, value: unknown): string | null {
  const validate = validatorOf(schema);
  if (validate(value)) return null;
  const [first] = validate.errors ?? [];
  return first ? `${first.instancePath || '/'} ${first.message ?? 'is invalid'} (${first.schemaPath})` : 'refused';
}

/** Strings and arrays stay short: a conformance run wants many requests, not big ones. */
const MAX_STRING = 40;
const MAX_ITEMS = 4;
const MAX_DEPTH = 5;

const pad = (n: number, width: number): string => String(n).padStart(width, '0');

/** full-date of RFC 3339, years 0001–9999. */
export const rfcDate = fc
  .date({ min: new Date('0001-01-01T00:00:00.000Z'), max: new Date('9999-12-31T00:00:00.000Z'), noInvalidDate: true })
  .map((date) => date.toISOString().slice(0, 10));

/**
 * date-time of RFC 3339 in its variety: an offset of either sign up to ±23:59 or Z (either case),
 * a `T` of either case, a fraction of 0–12 digits, and the leap second 23:59:60 UTC. Instants stay a
 * day inside 0000–9999 (the contract's range, which no format can state: see Timestamp's text).
 */
export const rfcDateTime = fc
  .record({
    instant: fc.integer({ min: Date.UTC(1, 0, 2) / 1000, max: Date.UTC(9999, 11, 30) / 1000 }),
    offsetMinutes: fc.oneof(fc.constant(0), fc.integer({ min: -(23 * 60 + 59), max: 23 * 60 + 59 })),
    zulu: fc.constantFrom('Z', 'z', '+00:00', '-00:00'),
    separator: fc.constantFrom('T', 't'),
    fraction: fc.oneof(fc.constant(''), fc.stringMatching(/^\.[0-9]{1,12}$/)),
    leapSecond: fc.nat({ max: 9 }).map((n) => n === 0),
  })
  .map(({ instant, offsetMinutes, zulu, separator, fraction, leapSecond }) => {
    const seconds = leapSecond ? Math.floor(instant / 86_400) * 86_400 + 86_399 : instant;
    const local = new Date((seconds + offsetMinutes * 60) * 1000);
    const sign = offsetMinutes < 0 ? '-' : '+';
    const offset =
      offsetMinutes === 0
        ? zulu
        : `${sign}${pad(Math.floor(Math.abs(offsetMinutes) / 60), 2)}:${pad(Math.abs(offsetMinutes) % 60, 2)}`;
    const iso = local.toISOString();
    const second = leapSecond ? '60' : iso.slice(17, 19);
    return `${iso.slice(0, 10)}${separator}${iso.slice(11, 17)}${second}${fraction}${offset}`;
  });

/** Strings of a pattern, as a `u`-flag reader (Ajv, the server) matches them. */
function patternString(pattern: string): fc.Arbitrary<string> {
  const full = new RegExp(pattern, 'u');
  return fc.stringMatching(new RegExp(pattern)).filter((text) => full.test(text));
}

const codePoints = (text: string): number => [...text].length;

function stringOf(schema: Schema): fc.Arbitrary<string> {
  const min = typeof schema.minLength === 'number' ? schema.minLength : 0;
  const max = typeof schema.maxLength === 'number' ? schema.maxLength : Number.POSITIVE_INFINITY;
  const fits = (text: string): boolean => codePoints(text) >= min && codePoints(text) <= max;
  if (schema.format === 'date-time') return rfcDateTime;
  if (schema.format === 'date') return rfcDate;
  if (typeof schema.pattern === 'string') {
    // Long runs of a one-character class are how fast-check meets a maximum: cut them back.
    return patternString(schema.pattern)
      .map((text) => (codePoints(text) > max ? [...text].slice(0, max).join('') : text))
      .filter((text) => fits(text) && new RegExp(schema.pattern as string, 'u').test(text));
  }
  return fc
    .oneof(fc.string({ unit: 'grapheme', maxLength: MAX_STRING }), fc.string({ unit: 'binary', maxLength: MAX_STRING }))
    .map((text) => (codePoints(text) > max ? [...text].slice(0, max).join('') : text))
    .filter(fits)
    .map((text) => (codePoints(text) < min ? text + 'x'.repeat(min - codePoints(text)) : text));
}

function integerOf(schema: Schema): fc.Arbitrary<number> {
  const min = typeof schema.minimum === 'number' ? schema.minimum : -Number.MAX_SAFE_INTEGER;
  const max = typeof schema.maximum === 'number' ? schema.maximum : Number.MAX_SAFE_INTEGER;
  // fast-check's bias reaches both ends; small values keep counts and sizes realistic.
  return fc.oneof(
    fc.bigInt({ min: BigInt(min), max: BigInt(max) }).map(Number),
    fc.integer({ min: Math.max(min, 0), max: Math.min(max, 1000) }).filter((n) => n >= min),
  );
}

const withType = (schema: Schema, type: unknown): Schema => ({ ...schema, type });

/** Values the schema accepts. */
export function valid(schema: Schema, depth = 0): fc.Arbitrary<unknown> {
  return validUnchecked(schema, depth).filter((value) => accepts(schema, value));
}

function validUnchecked(schema: Schema, depth: number): fc.Arbitrary<unknown> {
  if ('const' in schema) return fc.constant(schema.const);
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[]));
  const { anyOf, oneOf, ...rest } = schema;
  const variants = (anyOf ?? oneOf) as Schema[] | undefined;
  if (variants) return fc.oneof(...variants.map((variant) => validUnchecked({ ...rest, ...variant }, depth + 1)));
  const type = schema.type ?? (schema.properties ? 'object' : undefined);
  if (Array.isArray(type))
    return fc.oneof(...type.map((each: unknown) => validUnchecked(withType(schema, each), depth)));
  switch (type) {
    case 'string':
      return schema.format === 'binary' ? fc.uint8Array({ maxLength: 64 }) : stringOf(schema);
    case 'integer':
      return integerOf(schema);
    case 'number':
      return fc.double({
        noNaN: true,
        noDefaultInfinity: true,
        ...(typeof schema.minimum === 'number' ? { min: schema.minimum } : {}),
        ...(typeof schema.maximum === 'number' ? { max: schema.maximum } : {}),
      });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array': {
      const minLength = typeof schema.minItems === 'number' ? schema.minItems : 0;
      const maxLength = Math.max(
        minLength,
        Math.min(typeof schema.maxItems === 'number' ? schema.maxItems : MAX_ITEMS, MAX_ITEMS),
      );
      const items = depth > MAX_DEPTH ? fc.constant(null) : valid((schema.items ?? {}) as Schema, depth + 1);
      return schema.uniqueItems
        ? fc.uniqueArray(items, { minLength, maxLength, selector: (item) => JSON.stringify(item) })
        : fc.array(items, { minLength, maxLength });
    }
    case 'object':
      return objectOf(schema, depth);
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

function objectOf(schema: Schema, depth: number): fc.Arbitrary<unknown> {
  const properties = (schema.properties ?? {}) as Record<string, Schema>;
  const required = (schema.required ?? []) as string[];
  const extra = schema.additionalProperties;
  const maxKeys = Math.min(typeof schema.maxProperties === 'number' ? schema.maxProperties : MAX_ITEMS, MAX_ITEMS);
  const known = fc.record(
    Object.fromEntries(Object.entries(properties).map(([key, value]) => [key, valid(value, depth + 1)])),
    { requiredKeys: required.filter((key) => key in properties) },
  );
  if (typeof extra !== 'object' || extra === null || Object.keys(properties).length > 0) return known;
  // A map: keys the schema does not name, values of its additionalProperties schema.
  return fc.dictionary(fc.string({ minLength: 1, maxLength: 12 }), valid(extra as Schema, depth + 1), { maxKeys });
}

/** Characters that patterns commonly refuse: C0, DEL and C1 controls, bidi overrides, separators, spaces. */
const PATTERN_BREAKING_CHARACTERS = ['\u0000', '\u001b', '\u007f', '\u0085', '\u202e', '\u2066', ' ', '/', '.', '%'];

/** One way to break a schema, or none where it accepts every value of its kind. */
type Breaker = fc.Arbitrary<unknown>;

/**
 * Values the schema refuses, each breaking one of its rules. `textual`: the value travels as text
 * (a query or path parameter), where a wrong JSON type cannot be said, only a wrong text.
 */
export function invalid(schema: Schema, textual: boolean): fc.Arbitrary<unknown> | null {
  const breakers = breakersOf(schema, textual, 0);
  if (breakers.length === 0) return null;
  return fc.oneof(...breakers).filter((value) => !accepts(schema, value));
}

function breakersOf(schema: Schema, textual: boolean, depth: number): Breaker[] {
  const breakers: Breaker[] = [];
  if (Array.isArray(schema.enum)) {
    const values = schema.enum as unknown[];
    breakers.push(fc.string({ maxLength: 12 }).filter((text) => !values.includes(text)));
    return breakers;
  }
  const type = schema.type ?? (schema.properties ? 'object' : undefined);
  if (typeof type !== 'string') return breakers;
  if (!textual) {
    const others: Record<string, unknown> = {
      string: 7,
      integer: 'seven',
      number: 'seven',
      boolean: 'yes',
      object: [],
      array: {},
    };
    breakers.push(fc.constant(others[type] ?? 'x'));
  }
  switch (type) {
    case 'string':
      if (typeof schema.minLength === 'number' && schema.minLength > 0) {
        breakers.push(fc.string({ maxLength: schema.minLength - 1 }));
      }
      if (typeof schema.maxLength === 'number' && schema.maxLength < 10_000) {
        breakers.push(
          fc.string({ minLength: schema.maxLength + 1, maxLength: schema.maxLength + 8, unit: 'grapheme-ascii' }),
        );
      }
      if (typeof schema.pattern === 'string') {
        // Printable ASCII alone cannot break a pattern that only forbids controls or bidi marks.
        breakers.push(
          fc.oneof(
            fc.string({ maxLength: 16 }),
            fc
              .tuple(
                fc.string({ maxLength: 8 }),
                fc.constantFrom(...PATTERN_BREAKING_CHARACTERS),
                fc.string({ maxLength: 8 }),
              )
              .map((parts) => parts.join('')),
          ),
        );
      }
      if (schema.format === 'date-time' || schema.format === 'date') {
        breakers.push(
          fc.constantFrom(
            '2026-13-01',
            '2026-02-30',
            '2026-11-01T24:00:00Z',
            '2026-11-01T12:00:00',
            'yesterday',
            '1700000000',
          ),
        );
      }
      break;
    case 'integer':
      if (typeof schema.minimum === 'number') breakers.push(fc.constant(schema.minimum - 1));
      if (typeof schema.maximum === 'number' && schema.maximum < Number.MAX_SAFE_INTEGER) {
        breakers.push(fc.constant(schema.maximum + 1));
      }
      breakers.push(fc.constant(textual ? 'seven' : 1.5));
      break;
    case 'boolean':
      if (textual) breakers.push(fc.constantFrom('yes', '2', 'truthy'));
      break;
    case 'array':
      if (typeof schema.minItems === 'number' && schema.minItems > 0 && !textual) breakers.push(fc.constant([]));
      if (typeof schema.maxItems === 'number' && schema.maxItems <= 1000 && !textual) {
        breakers.push(
          fc.array(valid((schema.items ?? {}) as Schema), {
            minLength: schema.maxItems + 1,
            maxLength: schema.maxItems + 1,
          }),
        );
      }
      if (schema.items && depth < MAX_DEPTH && !textual) {
        const item = schema.items as Schema;
        const broken = breakersOf(item, false, depth + 1);
        if (broken.length > 0) {
          breakers.push(
            fc.tuple(valid(schema), fc.oneof(...broken)).map(([array, bad]) => [...(array as unknown[]), bad]),
          );
        }
      }
      break;
    case 'object':
      if (!textual) breakers.push(...objectBreakers(schema, depth));
      break;
  }
  return breakers;
}

function objectBreakers(schema: Schema, depth: number): Breaker[] {
  const breakers: Breaker[] = [];
  const properties = (schema.properties ?? {}) as Record<string, Schema>;
  const required = (schema.required ?? []) as string[];
  const whole = valid(schema, depth) as fc.Arbitrary<Record<string, unknown>>;
  if (required.length > 0) {
    breakers.push(
      fc.tuple(whole, fc.constantFrom(...required)).map(([value, key]) => {
        const { [key]: _dropped, ...rest } = value;
        return rest;
      }),
    );
  }
  if (schema.additionalProperties === false) {
    breakers.push(whole.map((value) => ({ ...value, not_in_the_schema: 1 })));
  }
  if (depth < MAX_DEPTH) {
    for (const [key, property] of Object.entries(properties)) {
      const broken = breakersOf(property, false, depth + 1);
      if (broken.length > 0)
        breakers.push(fc.tuple(whole, fc.oneof(...broken)).map(([value, bad]) => ({ ...value, [key]: bad })));
    }
  }
  return breakers;
}
