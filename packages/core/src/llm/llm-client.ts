import type { LLMMessage, TokenUsage, ToolSpec } from '@skein/conversation';

/** Why the model stopped. Adapters map provider values onto these. */
export type FinishReason = 'stop' | 'tool_calls' | 'length' | 'content_filter' | 'error' | 'other';

export type ToolChoice = 'auto' | 'none' | 'required' | { readonly name: string };

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
  /** Passed through untouched to the adapter (provider-specific knobs). */
  readonly providerOptions?: Readonly<Record<string, unknown>>;
}

/** What an adapter streams while it generates. */
export type LLMStreamEvent =
  | { readonly type: 'text-delta'; readonly delta: string }
  | { readonly type: 'reasoning-delta'; readonly delta: string }
  | {
      readonly type: 'tool-call-delta';
      readonly index: number;
      readonly id?: string;
      readonly name?: string;
      readonly argumentsDelta: string;
    }
  | {
      readonly type: 'warning';
      readonly code: string;
      readonly message: string;
      readonly details?: Readonly<Record<string, unknown>>;
    };

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
