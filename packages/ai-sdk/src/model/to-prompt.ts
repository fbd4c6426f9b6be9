import type { LLMMessage } from '@skein/spec';
import { sentText } from '../parts-not-sent.js';
import {
  METADATA_AI_SDK_TOOL_CALLS,
  recordAt,
  storedReasoning,
  UNNAMED_TOOL_PLACEHOLDER,
} from './message-metadata.js';

/** The name a provider sees for an original tool name (encoded where a codec is in use). */
export type NameOf = (original: string) => string;

/** A message of the AI SDK prompt (`LanguageModelV3Prompt`; `v2` has the same shape for these). */
type PromptMessage =
  | { readonly role: 'system'; readonly content: string }
  | { readonly role: 'user'; readonly content: readonly PromptPart[] }
  | { readonly role: 'assistant'; readonly content: readonly PromptPart[] }
  | { readonly role: 'tool'; readonly content: readonly PromptPart[] };

type PromptPart = Readonly<Record<string, unknown>> & { readonly type: string };

/** Tool-call arguments as the prompt's `input` (a JSON value); text that is not JSON stays text. */
function inputOf(args: string): unknown {
  if (args.trim() === '') return {};
  try {
    return JSON.parse(args);
  } catch {
    return args;
  }
}

function assistantParts(message: LLMMessage, text: string, nameOf: NameOf): PromptPart[] {
  const parts: PromptPart[] = [];
  // Only reasoning the provider signed goes back: it needs it to go on (see message-metadata.ts).
  for (const reasoning of storedReasoning(message.metadata))
    parts.push({
      type: 'reasoning',
      text: reasoning.text,
      providerOptions: reasoning.providerMetadata,
    });
  if (text !== '') parts.push({ type: 'text', text });
  const callMetadata = recordAt(message.metadata, METADATA_AI_SDK_TOOL_CALLS);
  for (const call of message.toolCalls ?? []) {
    const providerOptions =
      callMetadata && Object.hasOwn(callMetadata, call.id) ? callMetadata[call.id] : undefined;
    parts.push({
      type: 'tool-call',
      toolCallId: call.id,
      toolName: call.name === '' ? UNNAMED_TOOL_PLACEHOLDER : nameOf(call.name),
      input: inputOf(call.arguments),
      ...(providerOptions === undefined ? {} : { providerOptions }),
    });
  }
  return parts;
}

/**
 * Skein's visible messages as an AI SDK prompt: system text, user text parts, assistant text with
 * its tool calls (arguments parsed back to JSON values), and each tool message as a tool result
 * (`error-text` where the engine marked it an error) under the name its call was sent with.
 */
export function toPrompt(messages: readonly LLMMessage[], nameOf: NameOf): PromptMessage[] {
  const callNames = new Map<string, string>();
  const prompt: PromptMessage[] = [];
  for (const [i, message] of messages.entries()) {
    const text = sentText(message.content, `messages[${i}].content`);
    switch (message.role) {
      case 'system':
        prompt.push({ role: 'system', content: text });
        break;
      case 'user':
        prompt.push({ role: 'user', content: [{ type: 'text', text }] });
        break;
      case 'assistant':
        for (const call of message.toolCalls ?? []) callNames.set(call.id, call.name);
        prompt.push({ role: 'assistant', content: assistantParts(message, text, nameOf) });
        break;
      case 'tool': {
        const id = message.toolCallId ?? '';
        const name = message.name ?? callNames.get(id) ?? '';
        const isError = message.metadata?.isError === true;
        prompt.push({
          role: 'tool',
          content: [
            {
              type: 'tool-result',
              toolCallId: id,
              toolName: name === '' ? UNNAMED_TOOL_PLACEHOLDER : nameOf(name),
              output: { type: isError ? 'error-text' : 'text', value: text },
            },
          ],
        });
        break;
      }
    }
  }
  return prompt;
}
