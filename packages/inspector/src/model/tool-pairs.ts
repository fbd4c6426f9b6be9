import type { LLMMessage } from '@skein/spec';
import { contentText } from '@skein/spec';
import type { ToolPair } from './types.js';

/** JSON arguments indented for reading; anything else (broken JSON from a model) as it came. */
export function prettyArguments(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

/**
 * Every tool call of every assistant message, with the first tool message after it that answers
 * its id. Ids are matched, not positions: a rejected or failed call is answered too, and a call
 * still waiting (a paused approval) has no result yet.
 */
export function pairToolCalls(messages: readonly LLMMessage[]): ToolPair[] {
  const pairs: ToolPair[] = [];
  const waiting = new Map<string, number>();
  messages.forEach((message, position) => {
    if (message.role === 'assistant')
      for (const call of message.toolCalls ?? []) {
        waiting.set(call.id, pairs.length);
        pairs.push({
          callId: call.id,
          name: call.name,
          arguments: prettyArguments(call.arguments),
          callPosition: position,
          isError: call.error !== undefined,
          ...(call.error === undefined ? {} : { result: call.error }),
        });
      }
    if (message.role === 'tool' && message.toolCallId !== undefined) {
      const index = waiting.get(message.toolCallId);
      if (index === undefined) return;
      waiting.delete(message.toolCallId);
      pairs[index] = {
        ...pairs[index]!,
        resultPosition: position,
        result: contentText(message.content),
        isError: message.metadata?.isError === true,
      };
    }
  });
  return pairs;
}
