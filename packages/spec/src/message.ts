import type { MessageContent } from './content/content-part.js';

/** Who wrote a message. `tool` messages answer an assistant's tool call. */
export type Role = 'system' | 'user' | 'assistant' | 'tool';

export const ROLES: readonly Role[] = ['system', 'user', 'assistant', 'tool'];

/** A tool call requested by the model. */
export interface ToolCall {
  readonly id: string;
  readonly name: string;
  /** The arguments as a JSON string, exactly as the model produced them (possibly repaired). */
  readonly arguments: string;
  /**
   * Set when the call cannot be run (no name arrived, arguments are not JSON, …). The engine
   * answers such a call with a tool message carrying this error instead of running a tool, so
   * the model can read what went wrong and recover.
   */
  readonly error?: string;
}

/**
 * A message. Its content is `MessageContent`: text, or a list of text, image, audio and file
 * parts (decision 0031). `LLMMessage<string>` names a message known to hold text only.
 * Reasoning is not a part: adapters keep it where they do now (`metadata.reasoning`,
 * `reasoning-delta` events).
 */
export interface LLMMessage<TContent extends MessageContent = MessageContent> {
  readonly role: Role;
  readonly content: TContent;
  /** Tool calls of an assistant message. */
  readonly toolCalls?: readonly ToolCall[];
  /** On `tool` messages: the id of the call this message answers. */
  readonly toolCallId?: string;
  /** The tool's name on `tool` messages, or a participant name. */
  readonly name?: string;
  readonly metadata?: Readonly<Record<string, unknown>>;
}

/** Marker placed in `metadata.kind` of the guaranteed initial-tool description message. */
export const TOOL_DESCRIPTION_KIND = 'tool-description';
