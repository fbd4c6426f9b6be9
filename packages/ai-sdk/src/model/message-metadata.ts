/**
 * Keys this package sets in the assistant message's `metadata` and reads back when the message is
 * sent again. Everything under them is JSON, so a checkpoint keeps it.
 */

/** The model's reasoning text, joined (kept for people and transcripts, never sent back as such). */
export const METADATA_REASONING = 'reasoning';

/**
 * `{ text, providerMetadata }[]`: reasoning parts that came with provider metadata (an Anthropic
 * signature, an OpenAI item id or encrypted content). The provider asks for these back in the next
 * call, so they are sent again as reasoning parts with that metadata as `providerOptions`.
 */
export const METADATA_AI_SDK_REASONING = 'aiSdkReasoning';

/**
 * `Record<toolCallId, providerMetadata>`: metadata a provider attached to a tool call (e.g. a
 * Gemini thought signature), sent back as the call's `providerOptions`.
 */
export const METADATA_AI_SDK_TOOL_CALLS = 'aiSdkToolCallMetadata';

/** The name sent for a stored tool call that arrived without one: providers reject `''`. */
export const UNNAMED_TOOL_PLACEHOLDER = 'skein_unnamed_tool';

export interface StoredReasoning {
  readonly text: string;
  readonly providerMetadata: Readonly<Record<string, unknown>>;
}

/** `metadata[key]` when it is a plain object (own entries only), else undefined. */
export function recordAt(
  metadata: Readonly<Record<string, unknown>> | undefined,
  key: string,
): Readonly<Record<string, unknown>> | undefined {
  const value = metadata?.[key];
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

/** The reasoning parts stored under `METADATA_AI_SDK_REASONING`, skipping malformed entries. */
export function storedReasoning(
  metadata: Readonly<Record<string, unknown>> | undefined,
): StoredReasoning[] {
  const value = metadata?.[METADATA_AI_SDK_REASONING];
  if (!Array.isArray(value)) return [];
  return value.filter(
    (entry): entry is StoredReasoning =>
      typeof entry === 'object' &&
      entry !== null &&
      typeof (entry as StoredReasoning).text === 'string' &&
      typeof (entry as StoredReasoning).providerMetadata === 'object' &&
      (entry as StoredReasoning).providerMetadata !== null,
  );
}
