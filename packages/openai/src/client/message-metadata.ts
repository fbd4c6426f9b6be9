/**
 * Keys this package sets in the assistant message's `metadata`, and reads back when the message
 * is sent again.
 */
export const METADATA_REASONING = 'reasoning';
export const METADATA_REFUSAL = 'refusal';
/** `Record<toolCallId, unknown>`: `extra_content` of each call, sent back with it. */
export const METADATA_TOOL_CALL_EXTRA_CONTENT = 'toolCallExtraContent';
/** `Record<toolCallId, string>`: the encoded name the model used, where it differs. */
export const METADATA_ENCODED_TOOL_NAMES = 'encodedToolNames';

/**
 * The name sent for a stored tool call that arrived without one (its `name` is `''`): providers
 * reject an empty function name, yet the call and its error answer must stay in the history.
 */
export const UNNAMED_TOOL_PLACEHOLDER = 'skein_unnamed_tool';

export function extraContentOf(
  metadata: Readonly<Record<string, unknown>> | undefined,
  toolCallId: string,
): unknown {
  const extras = metadata?.[METADATA_TOOL_CALL_EXTRA_CONTENT];
  if (typeof extras !== 'object' || extras === null) return undefined;
  // Own entries only: an id `__proto__` or `constructor` must not read Object.prototype's.
  return Object.hasOwn(extras, toolCallId)
    ? (extras as Record<string, unknown>)[toolCallId]
    : undefined;
}
