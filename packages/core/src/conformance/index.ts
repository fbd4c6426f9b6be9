// Public API of @skein/core/conformance: shared test suites every implementation must pass.
// Imports vitest: use it from test files only.

export type { ConformanceSubject } from './checkpoint-store-conformance.js';
export { runCheckpointStoreConformance } from './checkpoint-store-conformance.js';
export { runInboxConformance } from './inbox-conformance.js';
export { runLLMClientConformance } from './llm-client-conformance.js';
export type {
  ConformanceUsage,
  LLMClientCapabilities,
  LLMClientConformanceFactory,
  LLMClientConformanceSubject,
  LLMClientConformanceTurn,
} from './llm-client-conformance-types.js';
export { runLongConversationConformance } from './long-conversation-conformance.js';
