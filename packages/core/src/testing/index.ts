// Public API of @skein/core/testing: helpers for tests and demos, kept out of the main entry.
export { InvalidScriptError } from './errors/invalid-script-error.js';
export { ScriptExhaustedError } from './errors/script-exhausted-error.js';
export { ScriptedLLMClient, splitTokens } from './scripted-llm-client.js';
export type {
  RecordedLLMCall,
  ScriptedCall,
  ScriptedLLMClientOptions,
  ScriptedResponse,
  ScriptFunction,
  ScriptStep,
} from './types.js';
