// Public API of @skein/core/testing: helpers for tests and demos, kept out of the main entry.
export type { ScriptErrorCode, ScriptErrorFacts } from './errors/script-error.js';
export { ScriptError } from './errors/script-error.js';
export { ScriptedLLMClient, splitTokens } from './scripted-llm-client.js';
export type {
  RecordedLLMCall,
  ScriptedCall,
  ScriptedLLMClientOptions,
  ScriptedResponse,
  ScriptFunction,
  ScriptStep,
} from './types.js';
