import { type LLMMessage, TOOL_DESCRIPTION_KIND } from '@skein/spec';
import { ToolBenchError } from '../errors/toolbench-error.js';
import type { ToolLLaMAMessage } from '../prompt/toolllama-prompt.js';
import { reactMetadataOf } from './react-metadata.js';
import { textOnlyMessages } from './text-only-messages.js';
import { type ObservationOptions, toolObservation } from './tool-observation.js';

/**
 * The text an assistant message stands for in a ToolLLaMA prompt: the model's own raw reply when
 * the message came from `createReActLLMClient`, otherwise the reply it would have written
 * (`Thought: <content>\nAction: <name>\nAction Input: <arguments>` per call), otherwise its content.
 */
export function assistantPromptText(message: LLMMessage<string>): string {
  const react = reactMetadataOf(message);
  if (react !== undefined) return react.raw;
  const calls = message.toolCalls ?? [];
  if (calls.length === 0) return message.content;
  return calls
    .map(
      (call, i) =>
        `Thought: ${i === 0 ? message.content : ''}\nAction: ${call.name}\nAction Input: ${call.arguments}`,
    )
    .join('\n');
}

/**
 * The engine's messages as ToolLLaMA turns: system, user, `tool` as `Function` (the call's own
 * `error` text when the call carried one; a failure the engine decided itself as the function
 * response `{"error": …, "response": ""}`, see `toolObservation`), assistant as its ReAct text.
 * The engine's generated tool-description message is left out: the function list in the
 * processed system prompt already describes the tools, in the form the model was trained on.
 */
export function toToolLLaMAMessages(
  messages: readonly LLMMessage[],
  options: ObservationOptions = {},
): ToolLLaMAMessage[] {
  const out: ToolLLaMAMessage[] = [];
  const texts = textOnlyMessages(messages);
  // A call made with `error` is answered by the engine in its own words ("Error [CODE]: …");
  // the model is shown the error text itself, the observation the reference would show.
  const callErrors = new Map<string, string>();
  texts.forEach((message, i) => {
    if (message.role === 'assistant')
      for (const call of message.toolCalls ?? [])
        if (call.error !== undefined) callErrors.set(call.id, call.error);
    switch (message.role) {
      case 'system':
        if (message.metadata?.kind !== TOOL_DESCRIPTION_KIND)
          out.push({ role: 'system', content: message.content });
        return;
      case 'user':
        out.push({ role: 'user', content: message.content });
        return;
      case 'tool': {
        const error =
          message.toolCallId === undefined ? undefined : callErrors.get(message.toolCallId);
        out.push({ role: 'function', content: error ?? toolObservation(message, options) });
        return;
      }
      case 'assistant':
        out.push({ role: 'assistant', content: assistantPromptText(message) });
        return;
      default:
        throw ToolBenchError.prompt(
          `messages[${i}]`,
          `unknown role ${JSON.stringify(message.role)}`,
        );
    }
  });
  return out;
}
