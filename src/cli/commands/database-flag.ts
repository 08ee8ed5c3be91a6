import {
  DatabaseUrlError,
  parseDatabaseUrl,
  urlHasPassword,
  type DatabaseLocation,
  type PostgresLocation,
} from '../../main/db/database-location';
import { PasswordFileError, readPasswordFile } from '../../main/db/postgres/password-file';
import { writeErr } from '../output';
import { UsageError } from '../usage-error';

/**
 * `--database URL`, else `SCANDESK_DATABASE_URL`: a PostgreSQL store; neither: SQLite in the data
 * directory. The password may come from the URL, `--database-password-file` (or
 * `SCANDESK_DATABASE_PASSWORD_FILE`), PGPASSWORD or ~/.pgpass (PGPASSFILE).
 */
export const DATABASE_OPTION = {
  database: { type: 'string' },
  'database-password-file': { type: 'string' },
} as const;

export function databaseFlag(
  value: string | undefined,
  passwordFile: string | undefined = process.env.SCANDESK_DATABASE_PASSWORD_FILE || undefined,
): DatabaseLocation | undefined {
  const url = value ?? (process.env.SCANDESK_DATABASE_URL || undefined);
  if (url === undefined) {
    if (passwordFile !== undefined) {
      throw new UsageError('--database-password-file needs --database or SCANDESK_DATABASE_URL');
    }
    return undefined;
  }
  const location = databaseUrl(url, '--database');
  if (passwordFile === undefined) return location;
  if (urlHasPassword(url)) {
    throw new UsageError('the database URL holds a password already; give it in one place only');
  }
  try {
    // Read now so that a wrong path stops the command at once; the store reads it again when opened.
    readPasswordFile(passwordFile);
  } catch (error) {
    if (error instanceof PasswordFileError) throw new UsageError(error.message);
    throw error;
  }
  return { ...location, passwordFile };
}

/**
 * A PostgreSQL URL given as a command-line argument (`flag`). One holding a password can be read
 * by every local user (ps, /proc): the CLI masks it in its process title at once (index.ts), and
 * this says where the password belongs instead.
 */
export function databaseUrl(url: string, flag: string): PostgresLocation {
  let location: PostgresLocation;
  try {
    location = parseDatabaseUrl(url);
  } catch (error) {
    if (error instanceof DatabaseUrlError) throw new UsageError(error.message.replace('--database', flag));
    throw error;
  }
  const inArguments = process.argv.includes(url) || process.argv.some((arg) => arg.endsWith(`=${url}`));
  if (inArguments && urlHasPassword(url)) {
    writeErr(
      `warning: the password in ${flag} can be read by other local users (ps) while the process starts; ` +
        'give it in SCANDESK_DATABASE_URL, PGPASSWORD, ~/.pgpass or --database-password-file instead\n',
    );
  }
  return location;
}
