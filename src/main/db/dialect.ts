import { PostgresAdapter } from 'kysely';
import type { Executor } from './database';

export type Dialect = 'sqlite' | 'postgres';

/** Which backend runs `executor`'s queries: what differs per dialect branches on this. */
export const dialectOf = (executor: Executor): Dialect =>
  executor.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
