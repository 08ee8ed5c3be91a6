import { randomFillSync } from 'node:crypto';
import { monotonicFactory } from 'ulid';
import { ID_PREFIX } from '../shared/api/common';

// ulid draws one crypto byte per character by default (16 calls into crypto per id, ~4 % of a
// submit's CPU); drawing them from a buffer filled 4 KiB at a time gives the same bytes cheaper.
const pool = new Uint8Array(4096);
let drawn = pool.length;
function pooledRandom(): number {
  if (drawn === pool.length) {
    randomFillSync(pool);
    drawn = 0;
  }
  return pool[drawn++]! / 256;
}

const nextUlid = monotonicFactory(pooledRandom);

/** A prefixed ULID: opaque to clients, sortable by creation time (docs/contract/api.md#basics). */
export function newId(kind: keyof typeof ID_PREFIX): string {
  return ID_PREFIX[kind] + nextUlid();
}
