/**
 * An empty object to key by names that people choose (rules, tools, actions, token types). A `{}`
 * inherits from Object.prototype: `record['constructor']` reads a function before anything was
 * stored, and `record['__proto__'] = value` replaces the prototype instead of adding a key. With
 * no prototype, every name is just a key; JSON.stringify and Object.keys/entries see it as usual.
 */
export const keyedRecord = <T>(): Record<string, T> => Object.create(null) as Record<string, T>;
