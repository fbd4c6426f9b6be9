// Public API of @skein/inspector. Nothing else is importable.

export { NotAStoreError } from './errors/not-a-store-error.js';
export { ResumeNotAllowedError } from './errors/resume-not-allowed-error.js';
export { StoreMissingError } from './errors/store-missing-error.js';
export { ThreadNotPausedError } from './errors/thread-not-paused-error.js';
export { UnsupportedStoreError } from './errors/unsupported-store-error.js';
export type { ThreadFilter } from './model/filter-threads.js';
export type { InspectedState } from './model/thread-summary.js';
export type {
  BatchRecord,
  Boundary,
  StoredMessage,
  ThreadDetail,
  ThreadSummary,
  TimelineEntry,
  ToolPair,
  WorkflowGraph,
} from './model/types.js';
export type { InspectorOptions, RunningInspector } from './server/inspector-options.js';
export { startInspector } from './server/start-inspector.js';
export type { InspectorStore, OpenedStore } from './stores/inspector-store.js';
export { openStore } from './stores/open-store.js';
