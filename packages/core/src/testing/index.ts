// Public API of @skein/core/testing: helpers for tests and demos, kept out of the main entry.

export type { CallIdMessage } from './default-call-id.js';
export { defaultCallId } from './default-call-id.js';
export type { ScriptErrorCode, ScriptErrorFacts } from './errors/script-error.js';
export { ScriptError } from './errors/script-error.js';
export { makeCheckpoint } from './make-checkpoint.js';
export { saveGroupsUntilKilled } from './save-groups.js';
export { ScriptedLLMClient, splitTokens } from './scripted-llm-client.js';
export type {
  RecordedLLMCall,
  ScriptedCall,
  ScriptedLLMClientOptions,
  ScriptedResponse,
  ScriptFunction,
  ScriptStep,
} from './types.js';
