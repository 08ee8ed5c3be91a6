import { Type, type Static, type TObject, type TProperties } from 'typebox';
import Format from 'typebox/format';
import Value from 'typebox/value';
import { parseDate, parseDateTime } from './time';

// The standard formats as the server's validator reads them (src/main/http/validation.ts): a value
// the viewer keeps from its URL is one the API takes, and `2026-02-30` is no date anywhere.
Format.Set('date', (text) => parseDate(text) !== null);
Format.Set('date-time', (text) => parseDateTime(text) !== null);

/**
 * A whole day in a viewer URL (`?since=2026-11-01`): what a date field holds. The API's own
 * DateOrDateTime also takes date-times, which no date field can show.
 */
export const SearchDate = Type.String({ format: 'date' });

/** Whether `value` is a calendar day written as the URL and the API write one. */
export const isSearchDate = (value: unknown): value is string => Value.Check(SearchDate, value);

/**
 * The fields of `schema` that `input` holds in a form the schema takes, every other field named
 * and undefined. A URL's values arrive as text (or as the router's JSON reading of it), so each is
 * trimmed and converted to the field's type before it is checked; what still fails is dropped
 * rather than refused, so a hand-edited link never breaks a page. Naming the dropped fields
 * matters: the router lays this over the raw search, where an absent key would let the junk stay.
 */
export function parseSearch<T extends TProperties>(
  schema: TObject<T>,
  input: unknown,
): { [K in keyof Static<TObject<T>>]?: Static<TObject<T>>[K] | undefined } {
  const raw = typeof input === 'object' && input !== null ? (input as Record<string, unknown>) : {};
  const search: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(schema.properties)) {
    search[key] = fieldValue(field, Object.hasOwn(raw, key) ? raw[key] : undefined);
  }
  return search as { [K in keyof Static<TObject<T>>]?: Static<TObject<T>>[K] };
}

/**
 * Each field's answers by the text or number it was given. Converting and checking through TypeBox
 * costs up to a few milliseconds a field (an enum's type is worked out anew at every call), and the
 * router parses a page's search several times per navigation; a URL holds few distinct values.
 */
const answers = new WeakMap<TProperties[string], Map<unknown, unknown>>();
const MAX_ANSWERS = 1000;

function fieldValue(field: TProperties[string], value: unknown): unknown {
  if (value === undefined || value === null) return undefined;
  const trimmed = typeof value === 'string' ? value.trim() : value;
  if (trimmed === '') return undefined;
  if (typeof trimmed === 'object') return convertAndCheck(field, trimmed);
  let known = answers.get(field);
  if (!known) answers.set(field, (known = new Map()));
  if (known.has(trimmed)) return known.get(trimmed);
  const answer = convertAndCheck(field, trimmed);
  if (known.size < MAX_ANSWERS) known.set(trimmed, answer);
  return answer;
}

function convertAndCheck(field: TProperties[string], value: unknown): unknown {
  const converted = Value.Convert(field, value);
  return Value.Check(field, converted) ? converted : undefined;
}

/** The search without its undefined fields: what a test or a comparison wants to see. */
export const definedOnly = <T extends object>(search: T): T =>
  Object.fromEntries(Object.entries(search).filter(([, value]) => value !== undefined)) as T;
