import { type LLMMessage, TOOL_DESCRIPTION_KIND, type ToolSpec } from '@skein/spec';
import { extraContentOf } from './message-metadata.js';
import type {
  OpenAIAssistantMessageParam,
  OpenAIFunctionToolParam,
  OpenAIMessageParam,
  OpenAIToolCallParam,
  OpenAIUserContentPart,
  OpenAIUserMessageParam,
} from './wire-types.js';

/** Maps a tool name as stored (original, or `''` for a nameless call) to the name to write. */
export type NameOf = (name: string) => string;

function participant(name: string | undefined): { name?: string } {
  return name === undefined ? {} : { name };
}

function toToolCalls(message: LLMMessage, nameOf: NameOf): OpenAIToolCallParam[] {
  return (message.toolCalls ?? []).map((call) => {
    const extra = extraContentOf(message.metadata, call.id);
    return {
      id: call.id,
      type: 'function',
      function: { name: nameOf(call.name), arguments: call.arguments },
      ...(extra === undefined ? {} : { extra_content: extra }),
    };
  });
}

/** The tools a tool-description message describes (`metadata.tools`, set by @skein/conversation). */
function describedTools(message: LLMMessage): string[] {
  if (message.metadata?.kind !== TOOL_DESCRIPTION_KIND) return [];
  const tools = message.metadata.tools;
  return Array.isArray(tools) ? tools.filter((t): t is string => typeof t === 'string') : [];
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Rewrites tool names inside a tool-description message so the model reads the names it can
 * call. `rename` maps a name to its replacement (identity for names that fit). One pass, longest
 * name first at each place: a replacement is never rewritten again, which matters when one tool's
 * name is another tool's encoding (`a_b_e32b6` for `a.b`, and a tool literally named so).
 */
export function renameInDescription(
  message: LLMMessage,
  content: string,
  rename: NameOf,
  reverse = false,
): string {
  const pairs = describedTools(message)
    .map((original) => [original, rename(original)] as const)
    .filter(([original, renamed]) => original !== renamed)
    .map(([original, renamed]) =>
      reverse ? ([renamed, original] as const) : ([original, renamed] as const),
    )
    .sort((a, b) => b[0].length - a[0].length);
  if (pairs.length === 0) return content;
  const to = new Map(pairs);
  const pattern = new RegExp(pairs.map(([from]) => escapeRegExp(from)).join('|'), 'g');
  return content.replace(pattern, (from) => to.get(from) ?? from);
}

/** A user message with its content as it goes on the wire (text, or parts). */
export function toOpenAIUserMessage(
  message: LLMMessage,
  content: string | OpenAIUserContentPart[],
): OpenAIUserMessageParam {
  return { role: 'user', content, ...participant(message.name) };
}

/**
 * One message in Chat Completions form, given its content as text (a user message's parts go
 * through `toOpenAIUserMessage`). An assistant message that only calls tools gets
 * `content: null` (OpenAI's own shape); a tool message's `name` is not part of the format.
 */
export function toOpenAIMessage(
  message: LLMMessage,
  content: string,
  nameOf: NameOf,
): OpenAIMessageParam {
  switch (message.role) {
    case 'system':
      // The engine's tool description names the tools; the model must read the names it can call.
      return {
        role: 'system',
        content: renameInDescription(message, content, nameOf),
        ...participant(message.name),
      };
    case 'user':
      return toOpenAIUserMessage(message, content);
    case 'tool':
      return { role: 'tool', content, tool_call_id: message.toolCallId ?? '' };
    case 'assistant': {
      const calls = toToolCalls(message, nameOf);
      const result: OpenAIAssistantMessageParam = {
        role: 'assistant',
        content: calls.length !== 0 && content === '' ? null : content,
        ...participant(message.name),
      };
      if (calls.length !== 0) result.tool_calls = calls;
      return result;
    }
  }
}

export function toOpenAITool(spec: ToolSpec, nameOf: NameOf): OpenAIFunctionToolParam {
  return {
    type: 'function',
    function: {
      name: nameOf(spec.name),
      description: spec.description,
      parameters: { ...spec.parameters },
      ...(spec.strict === undefined ? {} : { strict: spec.strict }),
    },
  };
}
