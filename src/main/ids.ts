import { monotonicFactory } from 'ulid';
import { ID_PREFIX } from '../shared/api/common';

const nextUlid = monotonicFactory();

/** A prefixed ULID: opaque to clients, sortable by creation time (SPEC.md §1). */
export function newId(kind: keyof typeof ID_PREFIX): string {
  return ID_PREFIX[kind] + nextUlid();
}

/** Timestamps are always ISO 8601 UTC with milliseconds and `Z`. */
export function now(): string {
  return new Date().toISOString();
}
