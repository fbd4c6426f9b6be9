// Public API of @skein/store-sqlite. Nothing else is importable.

// Every failure of the store is a `StoreError` (from `@skein/spec`, re-exported here) with one
// of these codes; bad arguments are `InvalidArgumentError`.
export { StoreError } from '@skein/spec';
export type { SqliteDriverName } from './driver/connection.js';
export type { SqliteStoreErrorCode } from './errors/store-errors.js';
export { SqliteCheckpointStore } from './sqlite-checkpoint-store.js';
export type { SqliteCheckpointStoreOptions } from './store-options.js';
