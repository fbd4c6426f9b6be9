// Public API of @skein/store-postgres. Nothing else is importable (the test server helper is
// the separate subpath `@skein/store-postgres/testing`).

export { StoreClosedError } from './errors/store-closed-error.js';
export { StoreCorruptError } from './errors/store-corrupt-error.js';
export { StoreDatabaseError } from './errors/store-database-error.js';
export { StoreTooNewError } from './errors/store-too-new-error.js';
export { StoreUnserializableError } from './errors/store-unserializable-error.js';
export { PostgresCheckpointStore } from './postgres-checkpoint-store.js';
export type { MigrationResult } from './schema/migrate.js';
export type {
  PostgresCheckpointStoreOptions,
  PostgresConnectionOptions,
  PostgresPoolOptions,
} from './store-options.js';
