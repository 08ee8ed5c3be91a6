/**
 * Where a store lives: the SQLite file of a data directory (the default), or a PostgreSQL
 * database named by URL (`--database`, `SCANDESK_DATABASE_URL`). A pure decision, no I/O.
 * `passwordFile` names a file holding the password, for a URL that holds none (so that the
 * password is in neither the command line nor the environment).
 */
export type DatabaseLocation =
  { kind: 'sqlite'; file: string } | { kind: 'postgres'; url: string; passwordFile?: string | undefined };

export type PostgresLocation = Extract<DatabaseLocation, { kind: 'postgres' }>;

export class DatabaseUrlError extends Error {
  override readonly name = 'DatabaseUrlError';
}

const POSTGRES_SCHEMES = new Set(['postgres:', 'postgresql:']);

/**
 * Query parameters the driver reads as secrets (pg-connection-string: `password`, and
 * `sslpassword` for the client key), by their decoded name: `?pass%77ord=` is `password` too.
 */
const SECRET_PARAMETER = /^(ssl)?password$/i;

const MASK = '***';

/** The location a `--database` value names; anything but a PostgreSQL URL is refused with why. */
export function parseDatabaseUrl(value: string): PostgresLocation {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    // Not even masked: what cannot be parsed cannot be told apart from its password.
    throw new DatabaseUrlError(
      '--database must be a URL like postgres://USER@HOST:PORT/DB; the value given is not one (not shown, since it may hold a password)',
    );
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

/** Whether a parseable URL carries a password: in its user info or as a query parameter. */
export function urlHasPassword(value: string): boolean {
  try {
    const url = new URL(value);
    return url.password !== '' || [...url.searchParams.keys()].some((key) => SECRET_PARAMETER.test(key));
  } catch {
    return false;
  }
}

/** The URL with `password` as its user info's password, encoded so that the driver decodes it back. */
export function withPassword(value: string, password: string): string {
  const url = new URL(value);
  url.password = encodeURIComponent(password);
  return url.toString();
}

/**
 * The URL with every password masked (`***`), for logs and messages: the user info's, and every
 * secret query parameter's. What cannot be parsed is never echoed.
 */
export function redactDatabaseUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return '(unparseable database URL)';
  }
  if (url.password) url.password = MASK;
  const secrets = [...url.searchParams.keys()].filter((key) => SECRET_PARAMETER.test(key));
  for (const key of new Set(secrets)) url.searchParams.set(key, MASK);
  return url.toString();
}

/** `scheme://user:PASSWORD@`: everything up to the last `@` of the run, since a password may hold `@`. */
const USERINFO_PASSWORD = /(\b[a-z][a-z0-9+.-]*:\/\/[^\s:/?#@]*:)\S*@/gi;
/** `key=VALUE` as a query parameter (`?k=x&`) or a libpq key=value pair (`k='a b'`, `k = x`). */
const PARAMETER = /((?<![A-Za-z0-9_%])[A-Za-z0-9_%]+)(\s*=\s*)('(?:[^'\\]|\\.)*'?|[^\s&'#]*)/g;

const decoded = (text: string): string => {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
};

/**
 * Free text (a driver's error message, a log line) with anything that looks like a database
 * password masked: user info in a URL, and the value of every `password=`/`sslpassword=`
 * parameter, in a URL or a key=value connection string, its name percent-encoded or not. Errs
 * towards masking more than the password.
 */
export function maskSecrets(text: string): string {
  return text
    .replace(USERINFO_PASSWORD, `$1${MASK}@`)
    .replace(PARAMETER, (whole, key: string, equals: string) =>
      SECRET_PARAMETER.test(decoded(key)) ? `${key}${equals}${MASK}` : whole,
    );
}

/** What a message calls the store: the file, or the URL without its password. */
export const describeLocation = (location: DatabaseLocation): string =>
  location.kind === 'sqlite' ? location.file : redactDatabaseUrl(location.url);
