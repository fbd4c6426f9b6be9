// Public API of @skein/store-sqlite. Nothing else is importable.

export { StoreBusyError } from './errors/store-busy-error.js';
export { StoreClosedError } from './errors/store-closed-error.js';
export { StoreCorruptError } from './errors/store-corrupt-error.js';
export { StoreForeignError } from './errors/store-foreign-error.js';
export { StoreIoError } from './errors/store-io-error.js';
export { StoreNativeMissingError } from './errors/store-native-missing-error.js';
export { StoreTooNewError } from './errors/store-too-new-error.js';
export { StoreUnserializableError } from './errors/store-unserializable-error.js';
export { SqliteCheckpointStore } from './sqlite-checkpoint-store.js';
export type { SqliteCheckpointStoreOptions } from './store-options.js';
