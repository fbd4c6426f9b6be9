import type { LLMMessage } from '@skein/spec';
import type { PartSourceOptions } from './parts/part-options.js';
import { toAssistantContent, toSystemContent } from './parts/text-only-content.js';
import { toChatContent } from './parts/to-chat-content.js';
import { type ToolResultToSend, toToolRunMessages } from './parts/to-tool-messages.js';
import { type NameOf, toOpenAIMessage, toOpenAIUserMessage } from './to-openai-messages.js';
import type { OpenAIMessageParam } from './wire-types.js';

/** The tool messages from `start` on that answer one assistant turn (the run ends at another role). */
function toolRun(messages: readonly LLMMessage[], start: number): ToolResultToSend[] {
  const run: ToolResultToSend[] = [];
  for (let i = start; i < messages.length && messages[i]!.role === 'tool'; i++) {
    const message = messages[i]!;
    run.push({
      toolCallId: message.toolCallId ?? '',
      content: message.content,
      at: `messages[${i}].content`,
    });
  }
  return run;
}

/**
 * A request's messages in Chat Completions form. Parts are named by their place in the request
 * (`messages[2].content[1]`), which is where the caller can find them: a run of tool results with
 * media becomes one more message on the wire (decision 0032), so wire indexes drift. Async
 * because audio and files by URL or by ref are read through the app's fetcher or resolver.
 */
export async function toWireMessages(
  messages: readonly LLMMessage[],
  nameOf: NameOf,
  options: PartSourceOptions,
): Promise<OpenAIMessageParam[]> {
  const wire: OpenAIMessageParam[] = [];
  for (let i = 0; i < messages.length; i++) {
    const message = messages[i]!;
    const at = `messages[${i}].content`;
    switch (message.role) {
      case 'tool': {
        const run = toolRun(messages, i);
        wire.push(...(await toToolRunMessages(run, options)));
        i += run.length - 1;
        break;
      }
      case 'user':
        wire.push(toOpenAIUserMessage(message, await toChatContent(message.content, at, options)));
        break;
      case 'assistant':
        wire.push(toOpenAIMessage(message, toAssistantContent(message.content, at), nameOf));
        break;
      case 'system':
        wire.push(toOpenAIMessage(message, toSystemContent(message.content, at), nameOf));
        break;
    }
  }
  return wire;
}
