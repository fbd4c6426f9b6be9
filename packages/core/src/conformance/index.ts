// Public API of @skein/core/conformance: shared test suites every implementation must pass.
// Imports vitest: use it from test files only.

export type { ConformanceSubject } from './checkpoint-store-conformance.js';
export { runCheckpointStoreConformance } from './checkpoint-store-conformance.js';
