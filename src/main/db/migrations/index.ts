import type { Migration } from 'kysely';
import * as createSchema from './2026_11_21_000000_create_schema';
import * as createSessions from './2026_11_21_060000_create_sessions';
import * as addScansTokensIndex from './2026_11_21_070000_add_scans_tokens_index';

/**
 * Every migration, oldest first. An explicit list, not a folder scan: the main process is
 * bundled, so there is no folder to scan at run time. Append new migrations at the end.
 */
export const migrations: Readonly<Record<string, Migration>> = {
  '2026_11_21_000000_create_schema': createSchema,
  '2026_11_21_060000_create_sessions': createSessions,
  '2026_11_21_070000_add_scans_tokens_index': addScansTokensIndex,
};
