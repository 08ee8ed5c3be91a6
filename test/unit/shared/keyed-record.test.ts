import { describe, expect, it } from 'vitest';
import { keyedRecord } from '../../../src/shared/keyed-record';

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
});
