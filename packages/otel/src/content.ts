import type { LLMMessage, MessageContent, ToolSpec } from '@skein/spec';
import { contentText } from '@skein/spec';
import { type MediaPartJson, mediaPartJson } from './media-part.js';

// The shapes of `gen_ai.input.messages` / `gen_ai.output.messages` (role + typed parts) and
// `gen_ai.tool.definitions`, recorded as JSON strings since span attributes cannot nest.

type Part =
  | { readonly type: 'text'; readonly content: string }
  | {
      readonly type: 'tool_call';
      readonly id: string;
      readonly name: string;
      readonly arguments: unknown;
    }
  | { readonly type: 'tool_call_response'; readonly id: string; readonly response: string }
  | MediaPartJson;

interface SemconvMessage {
  readonly role: string;
  readonly parts: readonly Part[];
  readonly name?: string;
  readonly finish_reason?: string;
}

/** Arguments are parsed when they are JSON, so backends show them as objects; else kept as text. */
function parsedArguments(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/**
 * Content as parts in order: text (adjacent text parts joined, so text-only content gives the one
 * text part it always gave) and media described by `mediaPartJson`, never their bytes.
 */
function contentParts(content: MessageContent, withText: boolean): Part[] {
  if (typeof content === 'string')
    return withText && content !== '' ? [{ type: 'text', content }] : [];
  const parts: Part[] = [];
  let text = '';
  const flush = () => {
    if (withText && text !== '') parts.push({ type: 'text', content: text });
    text = '';
  };
  for (const part of content) {
    if (part.type === 'text') text += part.text;
    else {
      flush();
      parts.push(mediaPartJson(part));
    }
  }
  flush();
  return parts;
}

function semconvMessage(message: LLMMessage, finishReason?: string): SemconvMessage {
  const parts: Part[] = [];
  if (message.role === 'tool') {
    parts.push({
      type: 'tool_call_response',
      id: message.toolCallId ?? '',
      response: contentText(message.content),
    });
    // The response holds the text; a tool's media (a chart, a screenshot) follow it.
    parts.push(...contentParts(message.content, false));
  } else parts.push(...contentParts(message.content, true));
  for (const call of message.toolCalls ?? [])
    parts.push({
      type: 'tool_call',
      id: call.id,
      name: call.name,
      arguments: parsedArguments(call.arguments),
    });
  return {
    role: message.role,
    parts,
    ...(message.name !== undefined && message.role !== 'tool' ? { name: message.name } : {}),
    ...(finishReason === undefined ? {} : { finish_reason: finishReason }),
  };
}

export function messagesJson(messages: readonly LLMMessage[]): string {
  return JSON.stringify(messages.map((m) => semconvMessage(m)));
}

export function outputJson(message: LLMMessage, finishReason: string): string {
  return JSON.stringify([semconvMessage(message, finishReason)]);
}

export function toolDefinitionsJson(tools: readonly ToolSpec[]): string {
  return JSON.stringify(
    tools.map((t) => ({
      type: 'function',
      name: t.name,
      description: t.description,
      parameters: t.parameters,
    })),
  );
}
