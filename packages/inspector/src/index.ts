// Public API of @skein/inspector. Nothing else is importable.

// The classes this package throws: @skein/spec's and its own. Its HTTP API refuses requests
// with @skein/http's HttpRequestError.
export { NotFoundError, StoreError } from '@skein/spec';
export type { PartError, PartErrorCode } from './errors/part-errors.js';
export type { OpenStoreError, OpenStoreErrorCode } from './errors/store-errors.js';
export type { ThreadFilter } from './model/filter-threads.js';
export type { MediaPartView, PartDisplay, PartView } from './model/media-part-view.js';
export type { InspectedState } from './model/thread-summary.js';
export type {
  BatchRecord,
  Boundary,
  HistoryItem,
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
