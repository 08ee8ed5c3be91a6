/**
 * An empty object to key by names that people choose (rules, tools, actions, token types). A `{}`
 * inherits from Object.prototype: `record['constructor']` reads a function before anything was
 * stored, and `record['__proto__'] = value` replaces the prototype instead of adding a key. With
 * no prototype, every name is just a key; JSON.stringify and Object.keys/entries see it as usual.
 */
export const keyedRecord = <T>(): Record<string, T> => Object.create(null) as Record<string, T>;

/** Adds `amount` to the count under `key`, which may be any name at all. */
export function addCount(record: Record<string, number>, key: string, amount = 1): void {
  record[key] = (Object.hasOwn(record, key) ? record[key]! : 0) + amount;
}
