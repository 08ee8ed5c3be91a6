import { DatabaseUrlError, parseDatabaseUrl, type DatabaseLocation } from '../../main/db/database-location';
import { UsageError } from '../usage-error';

/** `--database URL`, else `SCANDESK_DATABASE_URL`: a PostgreSQL store; neither: SQLite in the data directory. */
export const DATABASE_OPTION = { database: { type: 'string' } } as const;

export function databaseFlag(value: string | undefined): DatabaseLocation | undefined {
  const url = value ?? (process.env.SCANDESK_DATABASE_URL || undefined);
  if (url === undefined) return undefined;
  try {
    return parseDatabaseUrl(url);
  } catch (error) {
    if (error instanceof DatabaseUrlError) throw new UsageError(error.message);
    throw error;
  }
}
