import pg from 'pg';
import { Kysely, PostgresAdapter, PostgresDialect, type DialectAdapter, type Driver } from 'kysely';
import type { Database, Executor } from '../database';
import type { Store, StoreSlot } from '../store';
import { urlHasPassword, withPassword } from '../database-location';
import { readPasswordFile } from './password-file';
import { PoolDriver } from './pool-driver';

/** PostgreSQL type OIDs whose text form the API must answer as numbers. */
const INT8_OID = 20;
const NUMERIC_OID = 1700;

// pg returns int8 and numeric as strings, since they can exceed 2^53. Every such value here is a
// count, an epoch millisecond or a token sum, all far below it, and the API answers numbers: the
// SQLite store does, and docs/contract/api.md#basics says so. Per pool, not pg's global registry,
// so that nothing else in the process is affected.
const types = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === INT8_OID || oid === NUMERIC_OID) return (value: string) => Number(value);
    return pg.types.getTypeParser(oid, format);
  },
} as pg.CustomTypesConfig;

export interface PostgresOptions {
  /**
   * A file whose first line is the password, for a URL that holds none. Without either, pg takes
   * PGPASSWORD, then the password file of PGPASSFILE or ~/.pgpass.
   */
  passwordFile?: string | undefined;
  /** Connections in the pool: one for the writer's batch, the rest for reads. */
  poolSize?: number;
  /** Told the reason when an idle connection of the pool fails (the server restarted, say). */
  onIdleError?: (error: Error) => void;
  /**
   * Told, once, that statements run unnamed from now on: the server lost one a connection had
   * prepared (statement-names.ts; a pooler in transaction mode does that).
   */
  onStatementNamesOff?: (error: Error) => void;
}

// The adapter is what every Kysely instance and transaction made from it share: it carries the
// pool, so that no module-level map leads from instances to pools.
class PoolAdapter extends PostgresAdapter implements StoreSlot {
  store: Store | undefined = undefined;

  constructor(readonly pool: pg.Pool) {
    super();
  }
}

class PoolDialect extends PostgresDialect {
  constructor(
    private readonly pool: pg.Pool,
    private readonly onStatementNamesOff: ((error: Error) => void) | undefined,
  ) {
    super({ pool });
  }

  override createAdapter(): DialectAdapter {
    return new PoolAdapter(this.pool);
  }

  // Kysely's own driver keeps each connection's pg client private; COPY needs it (pool-driver.ts).
  override createDriver(): Driver {
    return new PoolDriver(this.pool, this.onStatementNamesOff);
  }
}

/** The pool under a store opened by openPostgres: for what Kysely does not do (LISTEN). */
export function poolOf(db: Executor): pg.Pool {
  const adapter = db.getExecutor().adapter;
  if (db.isTransaction || !(adapter instanceof PoolAdapter)) throw new Error('not a store opened by openPostgres');
  return adapter.pool;
}

/** A pool on `url` under Kysely; destroying the Kysely instance ends the pool. */
export function openPostgres(url: string, options: PostgresOptions = {}): Kysely<Database> {
  // pg's own `password` option loses to the URL's (an empty one included), so the password goes
  // into the URL, which lives only in this pool's memory.
  const connectionString =
    options.passwordFile === undefined || urlHasPassword(url)
      ? url
      : withPassword(url, readPasswordFile(options.passwordFile));
  const pool = new pg.Pool({
    connectionString,
    max: options.poolSize ?? 10,
    types,
    application_name: 'scandesk',
  });
  // An idle client whose server went away emits 'error' on the pool; unhandled, it would end
  // the process. The next query reconnects or fails on its own, with its own error.
  pool.on('error', (error) => options.onIdleError?.(error));
  return new Kysely<Database>({ dialect: new PoolDialect(pool, options.onStatementNamesOff) });
}
