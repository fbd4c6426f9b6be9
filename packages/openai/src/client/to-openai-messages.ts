import type { LLMMessage, ToolSpec } from '@skein/conversation';
import { extraContentOf } from './message-metadata.js';
import type {
  OpenAIAssistantMessageParam,
  OpenAIFunctionToolParam,
  OpenAIMessageParam,
  OpenAIToolCallParam,
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

/**
 * One message in Chat Completions form. An assistant message that only calls tools gets
 * `content: null` (OpenAI's own shape); a tool message's `name` is not part of the format.
 */
export function toOpenAIMessage(message: LLMMessage, nameOf: NameOf): OpenAIMessageParam {
  switch (message.role) {
    case 'system':
      return { role: 'system', content: message.content, ...participant(message.name) };
    case 'user':
      return { role: 'user', content: message.content, ...participant(message.name) };
    case 'tool':
      return { role: 'tool', content: message.content, tool_call_id: message.toolCallId ?? '' };
    case 'assistant': {
      const calls = toToolCalls(message, nameOf);
      const result: OpenAIAssistantMessageParam = {
        role: 'assistant',
        content: calls.length !== 0 && message.content === '' ? null : message.content,
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
