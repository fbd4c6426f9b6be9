import type { ToolNameMapping } from '@skein/spec';
import type { OpenAIFunctionToolParam, OpenAIMessageParam } from '../client/wire-types.js';

/** Per tool call: what OpenAI's format has no field for. */
export interface ToolCallExtras {
  /** `ToolCall.error`: the call was not run. */
  readonly error?: string;
  /** The call arrived without a name (`ToolCall.name === ''`); the placeholder was written. */
  readonly unnamed?: true;
}

/** Per message: Skein fields OpenAI's message format has no place for. */
export interface MessageExtras {
  readonly metadata?: Readonly<Record<string, unknown>>;
  /** `name` of a tool message (the tool's name, in the transcript's name form). */
  readonly name?: string;
  /** `toolCallId` on a message that is not a tool message. */
  readonly tool_call_id?: string;
  /** Keyed by the call's position in `tool_calls`. */
  readonly tool_calls?: Readonly<Record<string, ToolCallExtras>>;
  /** The message had `toolCalls: []`, which OpenAI's format cannot carry. */
  readonly empty_tool_calls?: true;
}

/**
 * A conversation in OpenAI Chat Completions format. Every tool name in `messages[].tool_calls`
 * and in `tools` has the same form; `tool_name_mapping` (encoded -> original) restores the
 * originals. For a fine-tuning line keep `messages` and `tools` (and drop the other keys).
 */
export interface ExportedTranscript {
  readonly messages: OpenAIMessageParam[];
  readonly tools: OpenAIFunctionToolParam[];
  readonly tool_name_mapping: ToolNameMapping;
  /** By message index; present only when some message has such fields. */
  readonly skein_extras?: Readonly<Record<string, MessageExtras>>;
}
