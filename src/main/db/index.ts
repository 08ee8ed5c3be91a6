/**
 * The front door of db/: everything a feature (src/main outside db/ and workspace/) may use.
 * Lint refuses a deeper import from a feature (eslint.config.js, DB_FRONT_DOOR); README.md is the
 * map of what lies behind.
 */
export type { Database, Db, Executor } from './database';
export { dialectOf, type Dialect } from './dialect';
export { inTransaction, MAX_ATTEMPTS, retryDelayMs, type TransactionOptions } from './transaction';
export { classifyDbError, isRetryable, type DbErrorKind } from './db-errors';
export { bigint, doubleSum } from './sql-math';
export { inList } from './in-list';
export { nextChangeSeq, readChangeSequence } from './change-sequence';
export {
  describeLocation,
  maskSecrets,
  parseDatabaseUrl,
  redactDatabaseUrl,
  DatabaseUrlError,
  type DatabaseLocation,
  type PostgresLocation,
} from './database-location';
export {
  checkReachable,
  openDatabase,
  openStore,
  refreshPlannerStatistics,
  StoreUnreachableError,
  type OpenDatabaseOptions,
} from './open-database';
export { migrateToLatest, MigrationError } from './migrate';
export type { CopySummary } from './store-copy';
export { storeOf, Store, type StorePart } from './store';
export { deferredWritesOf, type BatchedWork, type DeferredWrites } from './write-batcher';
export { powerOfTwoChunks } from './row-chunks';

// The speed tools (README.md lists what each one earned).
export { ReusableQuery } from './reusable-query';
export { tupleReader } from './tuple-reader';
export { OpenCopy } from './postgres/copy-stream';
export { copyOutRows } from './postgres/copy-out-rows';
export type { BinaryCopyRows } from './postgres/binary-copy-rows';
export {
  BulkInserter,
  relaxForBulkLoad,
  relaxTransaction,
  withLoadTables,
  withoutForeignKeys,
  withoutSecondaryIndexes,
  rowSample,
  ENTRY_SAMPLE,
  SCAN_SAMPLE,
  SCAN_SAMPLE_COLUMNS,
  TIMELINE_SAMPLE,
  VIOLATION_SAMPLE,
  type RowSample,
  type SqlValue,
} from './bulk-insert';

// Engine switches a feature asks for by name; each is a no-op where the engine has no such thing.
export { warmWalCheckpointer, withCheckpointsHeld } from './sqlite/sqlite-connection';
export { withRollbackJournal } from './sqlite/journal-switches';
export { listen, notify, NOTIFY_MAX_BYTES, type Listener } from './postgres/notifications';

// The tables' row types.
export type * from './tables/organization.table';
export type * from './tables/policy-run.table';
export type * from './tables/policy.table';
export type * from './tables/remote.table';
export type * from './tables/rollup.table';
export type * from './tables/scan.table';
export type * from './tables/session.table';
export type * from './tables/submit-key.table';
export type * from './tables/sync-bucket-set.table';
export type * from './tables/team.table';
export type * from './tables/timeline-cell.table';
export type * from './tables/timeline-entry.table';
export type * from './tables/token.table';
export type * from './tables/user.table';
export type * from './tables/violation.table';
