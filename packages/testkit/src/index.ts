// Public API of @skein/testkit. Each part lives in its own folder; add one export block per part.

// Scripted model: lives in @skein/core/testing (so core's own tests can use it without a
// dependency cycle) and is re-exported here with the rest of the kit.
export type {
  RecordedLLMCall,
  ScriptErrorCode,
  ScriptErrorFacts,
  ScriptedCall,
  ScriptedLLMClientOptions,
  ScriptedResponse,
  ScriptFunction,
  ScriptStep as ScriptedStep,
} from '@skein/core/testing';
export {
  ScriptError,
  ScriptedLLMClient,
  splitTokens,
} from '@skein/core/testing';
// Options the servers cannot work with are refused with @skein/spec's InvalidArgumentError.
export { InvalidArgumentError } from '@skein/spec';

// OpenAI-compatible Chat Completions server (issue 4)
export { startOpenAICompatibleServer } from './openai-server/start-openai-compatible-server.js';
export type {
  ChatCompletionsBody,
  ChunksTurn,
  FixtureTurn,
  OpenAICompatibleServer,
  OpenAICompatibleServerOptions,
  OpenAIServerQuirks,
  RecordedRequest,
  ScriptedToolCall,
  ScriptedTurn,
  ScriptStep,
  TurnSource,
  WireContentPart,
  WireMessage,
} from './openai-server/types.js';
export { lastUserText, wireContentText } from './openai-server/wire-content-text.js';
// A client streaming a large chunked upload, for servers that must answer it, not reset it.
export type { ChunkedBodyAnswer } from './raw-http/send-chunked-body.js';
export { sendChunkedBody } from './raw-http/send-chunked-body.js';
// ToolBench virtual-API server (StableToolBench protocol).
export { startToolBenchServer } from './toolbench-server/toolbench-server.js';
export type {
  RecordedToolBenchRequest,
  StartToolBenchServerOptions,
  ToolBenchCall,
  ToolBenchReply,
  ToolBenchResponder,
  ToolBenchServer,
  ToolBenchServerFailure,
  ToolBenchServerRequestBody,
} from './toolbench-server/types.js';
