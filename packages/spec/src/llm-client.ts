import type { LLMStreamEvent } from './llm-stream-event.js';
import type { LLMMessage } from './message.js';
import type { TokenUsage } from './token-usage.js';
import type { JsonSchema, ToolSpec } from './tool-spec.js';

/** Why the model stopped. Adapters map provider values onto these. */
export type FinishReason = 'stop' | 'tool_calls' | 'length' | 'content_filter' | 'error' | 'other';

export type ToolChoice = 'auto' | 'none' | 'required' | { readonly name: string };

/**
 * Asks the model for a final answer that is JSON matching `schema` (an LLM node's
 * `output: { schema }`). Adapters pass it on in their provider's form (`response_format` of type
 * `json_schema`, an AI SDK model's `responseFormat`); the engine validates the reply itself, so an
 * adapter whose provider has no such option may leave it out.
 */
export interface ResponseFormat {
  readonly type: 'json';
  readonly schema: JsonSchema;
  /** A name for the schema, where the provider wants one (OpenAI: `[a-zA-Z0-9_-]{1,64}`). */
  readonly name?: string;
  /** Ask the provider to enforce the schema strictly (OpenAI's `strict`); adapters default to false. */
  readonly strict?: boolean;
}

/** One call to a model: what it sees and what it may call. Tool names are the originals. */
export interface LLMRequest {
  readonly threadId: string;
  readonly nodeId: string;
  readonly messages: readonly LLMMessage[];
  readonly tools: readonly ToolSpec[];
  readonly model?: string;
  readonly temperature?: number;
  readonly maxTokens?: number;
  readonly toolChoice?: ToolChoice;
  readonly stop?: readonly string[];
  /** JSON output matching a schema, instead of free text (see `ResponseFormat`). */
  readonly responseFormat?: ResponseFormat;
  /** Passed through untouched to the adapter (provider-specific knobs). */
  readonly providerOptions?: Readonly<Record<string, unknown>>;
  /**
   * Why the engine makes this call, when it is not a turn of the conversation: `summary` for the
   * call that writes a summary of the conversation (a SUMMARIZE context operation, or compaction
   * before an LLM node's call). Its answer is stored as the summary, never as an assistant turn.
   */
  readonly purpose?: 'summary';
}

export interface LLMCallOptions {
  readonly signal?: AbortSignal;
  readonly onEvent?: (event: LLMStreamEvent) => void;
}

export interface LLMResponse {
  /**
   * The assistant message, tool calls included, with original tool names. A call the adapter
   * could not make whole carries `error` and is answered with that error instead of being run.
   */
  readonly message: LLMMessage;
  readonly usage?: TokenUsage;
  readonly finishReason: FinishReason;
  readonly model?: string;
}

/** The one seam between the engine and models. Adapters implement it. */
export interface LLMClient {
  /** A short name for events and errors, e.g. `openai:gpt-4o-mini` or `scripted`. */
  readonly name: string;
  generate(request: LLMRequest, options?: LLMCallOptions): Promise<LLMResponse>;
}
