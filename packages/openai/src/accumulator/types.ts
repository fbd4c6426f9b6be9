import type { LLMStreamEvent, TokenUsage } from '@skein/spec';

/** A non-fatal problem found while assembling a response; the client forwards it as an event. */
export interface AccumulatorWarning {
  readonly code: string;
  readonly message: string;
  readonly details?: Readonly<Record<string, unknown>>;
}

/** A finished tool call in OpenAI's shape, as assembled from the stream (names as the wire had them). */
export interface AssembledToolCall {
  readonly id: string;
  readonly type: string;
  readonly name: string;
  /** A JSON string: exactly what arrived, `{}` when nothing arrived, or the `jsonrepair` result. */
  readonly arguments: string;
  /** Set when the call must not be run (no name, arguments not JSON); the model reads this text. */
  readonly error?: string;
  /** Provider data attached to the call (Gemini's `extra_content`), to send back on the next turn. */
  readonly extraContent?: unknown;
}

/** Everything one choice of the response assembled to. */
export interface AccumulatedChoice {
  readonly index: number;
  readonly text: string;
  readonly reasoning: string;
  readonly refusal: string;
  readonly toolCalls: readonly AssembledToolCall[];
  /** The first non-empty `finish_reason` the provider sent, or `undefined` when none came. */
  readonly finishReason: string | undefined;
}

/** What `finish()` returns: the first choice's fields at the top, every choice in `choices`. */
export interface AccumulatorResult extends AccumulatedChoice {
  readonly choices: readonly AccumulatedChoice[];
  /** The last non-null `usage` the stream carried, mapped; `undefined` when none came. */
  readonly usage: TokenUsage | undefined;
  /** The last non-null `usage` object exactly as received. */
  readonly rawUsage: unknown;
  readonly model: string | undefined;
  readonly responseId: string | undefined;
  readonly chunks: number;
  readonly warnings: readonly AccumulatorWarning[];
}

export interface ToolCallAccumulatorOptions {
  /**
   * Receives text, reasoning and tool-call deltas as they arrive and warnings as they are found.
   * Tool-call deltas carry the position of the call in the response as `index`, and `id`/`name`
   * on the fragment where they first became known.
   */
  readonly onEvent?: (event: LLMStreamEvent) => void;
  /** Largest tool-call `index` accepted (default 1023). */
  readonly maxToolCallIndex?: number;
  /** Most tool calls per choice (default 256). */
  readonly maxToolCalls?: number;
  /** Most argument characters per call (default 8 MiB of UTF-16 units). */
  readonly maxArgumentsLength?: number;
  /**
   * Most characters of text, reasoning and refusal together, over all choices (default 16 MiB of
   * UTF-16 units). A server that streams without end is stopped with `STREAM_LIMIT_EXCEEDED`.
   */
  readonly maxTextLength?: number;
  /** Largest choice `index` accepted (default 127). */
  readonly maxChoiceIndex?: number;
  /** Makes the ids given to calls that arrived without one (default `call_` + 24 random hex). */
  readonly generateId?: () => string;
}

/** The loose shape of a chunk's parts as read from untrusted JSON. */
export interface RawChunk {
  readonly error?: unknown;
  readonly choices?: unknown;
  readonly usage?: unknown;
  readonly model?: unknown;
  readonly id?: unknown;
}

export interface RawChoice {
  readonly index?: unknown;
  readonly delta?: unknown;
  readonly finish_reason?: unknown;
}

export interface RawDelta {
  readonly content?: unknown;
  readonly reasoning_content?: unknown;
  readonly reasoning?: unknown;
  readonly refusal?: unknown;
  readonly tool_calls?: unknown;
}

export interface RawToolCallFragment {
  readonly index?: unknown;
  readonly id?: unknown;
  readonly type?: unknown;
  readonly function?: unknown;
  readonly extra_content?: unknown;
}

export interface RawFunction {
  readonly name?: unknown;
  readonly arguments?: unknown;
}
