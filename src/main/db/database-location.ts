/**
 * Where a store lives: the SQLite file of a data directory (the default), or a PostgreSQL
 * database named by URL (`--database`, `SCANDESK_DATABASE_URL`). A pure decision, no I/O.
 */
export type DatabaseLocation = { kind: 'sqlite'; file: string } | { kind: 'postgres'; url: string };

export class DatabaseUrlError extends Error {
  override readonly name = 'DatabaseUrlError';
}

const POSTGRES_SCHEMES = new Set(['postgres:', 'postgresql:']);

/** The location a `--database` value names; anything but a PostgreSQL URL is refused with why. */
export function parseDatabaseUrl(value: string): DatabaseLocation {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new DatabaseUrlError(`--database must be a URL like postgres://USER@HOST:PORT/DB, not "${value}"`);
  }
  if (!POSTGRES_SCHEMES.has(url.protocol)) {
    throw new DatabaseUrlError(
      `--database supports postgres:// URLs only (got ${url.protocol}); without it the store is SQLite in the data directory`,
    );
  }
  if (url.pathname.length <= 1 && !url.searchParams.has('host')) {
    throw new DatabaseUrlError('--database must name a database: postgres://USER@HOST:PORT/DB');
  }
  return { kind: 'postgres', url: value };
}

/** The URL with its password masked, for logs and messages. */
export function redactDatabaseUrl(value: string): string {
  try {
    const url = new URL(value);
    if (url.password) url.password = '***';
    return url.toString();
  } catch {
    return '(unparseable database URL)';
  }
}

/** What a message calls the store: the file, or the URL without its password. */
export const describeLocation = (location: DatabaseLocation): string =>
  location.kind === 'sqlite' ? location.file : redactDatabaseUrl(location.url);
