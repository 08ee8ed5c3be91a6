import { describe, expect, it } from 'vitest';
import { addCount, keyedRecord } from '../../../src/shared/keyed-record';

const NAMES = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', '__defineGetter__'];

describe('keyedRecord', () => {
  it('reads nothing before anything is stored, whatever the name', () => {
    const record = keyedRecord<number>();
    for (const name of NAMES) expect(record[name]).toBeUndefined();
  });

  it('stores every name as a key, in the order given, and serializes them all', () => {
    const record = keyedRecord<number>();
    NAMES.forEach((name, i) => (record[name] = i));
    expect(Object.keys(record)).toEqual(NAMES);
    expect(Object.keys(JSON.parse(JSON.stringify(record)) as object)).toEqual(NAMES);
  });

  it('counts with addCount, where a `{}` would start from a function or drop the key', () => {
    const record = keyedRecord<number>();
    for (const name of [...NAMES, 'constructor', '__proto__']) addCount(record, name);
    addCount(record, 'valueOf', 5);
    expect(Object.entries(record)).toEqual(
      NAMES.map((name) => [name, name === 'valueOf' ? 6 : ['constructor', '__proto__'].includes(name) ? 2 : 1]),
    );
  });

  it('addCount on a plain object still counts inherited names from zero', () => {
    const plain: Record<string, number> = {};
    addCount(plain, 'constructor', 3);
    expect(plain.constructor).toBe(3);
  });
});
