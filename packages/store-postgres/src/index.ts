// Public API of @skein/store-postgres. Nothing else is importable (the test server helper is
// the separate subpath `@skein/store-postgres/testing`).

// Every failure of the store is a `StoreError` (from `@skein/spec`, re-exported here) with one
// of these codes; bad arguments are `InvalidArgumentError`.
export type { MigrationResult } from '@skein/core/store-kit';
export { StoreError } from '@skein/spec';
export type { PostgresStoreErrorCode } from './errors/store-errors.js';
export { PostgresCheckpointStore } from './postgres-checkpoint-store.js';
export type {
  PostgresCheckpointStoreOptions,
  PostgresConnectionOptions,
  PostgresPoolOptions,
} from './store-options.js';
