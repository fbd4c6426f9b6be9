import { contentText, type LLMMessage, type MessageContent } from '@skein/spec';
import { AiSdkPartError } from '../errors/ai-sdk-part-error.js';
import { toV2ToolResultOutput } from '../parts/to-v2-tool-result-output.js';
import { toV3ToolResultOutput } from '../parts/to-v3-tool-result-output.js';
import { toV3UserContent } from '../parts/to-v3-user-content.js';
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

// A system message is text in both prompt specifications: media there has nowhere to go, and
// dropping it would send the model instructions the app did not write.
function systemText(content: MessageContent, at: string): string {
  if (typeof content === 'string') return content;
  const index = content.findIndex((part) => part.type !== 'text');
  if (index === -1) return contentText(content);
  const part = `${at}[${index}]`;
  const partType = content[index]!.type;
  throw new AiSdkPartError(
    'PART_UNSUPPORTED',
    `${part} (${partType} part): an AI SDK system message is text only; send media in a user message`,
    { part, partType },
  );
}

async function assistantParts(
  message: LLMMessage,
  at: string,
  nameOf: NameOf,
): Promise<PromptPart[]> {
  const parts: PromptPart[] = [];
  // Only reasoning the provider signed goes back: it needs it to go on (see message-metadata.ts).
  for (const reasoning of storedReasoning(message.metadata))
    parts.push({
      type: 'reasoning',
      text: reasoning.text,
      providerOptions: reasoning.providerMetadata,
    });
  // Files the model generated go back as the assistant's file parts, as the AI SDK keeps them.
  for (const part of await toV3UserContent(message.content, at))
    if (part.type !== 'text' || part.text !== '') parts.push(part);
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
 * Skein's visible messages as an AI SDK prompt: system text; user text and media as text and
 * `file` parts; assistant text and generated files with its tool calls (arguments parsed back to
 * JSON values); each tool message as a tool result under the name its call was sent with: `text`
 * output, `error-text` where the engine marked it an error, and a `content` output when it holds
 * media (`v3` items, or `v2` ones for a `v2` model). String content gives the prompt it always
 * gave.
 */
export async function toPrompt(
  messages: readonly LLMMessage[],
  nameOf: NameOf,
  specification: 'v2' | 'v3' = 'v3',
): Promise<PromptMessage[]> {
  const callNames = new Map<string, string>();
  const prompt: PromptMessage[] = [];
  const toolResultOutput = specification === 'v2' ? toV2ToolResultOutput : toV3ToolResultOutput;
  for (const [i, message] of messages.entries()) {
    const at = `messages[${i}].content`;
    switch (message.role) {
      case 'system':
        prompt.push({ role: 'system', content: systemText(message.content, at) });
        break;
      case 'user':
        prompt.push({ role: 'user', content: await toV3UserContent(message.content, at) });
        break;
      case 'assistant':
        for (const call of message.toolCalls ?? []) callNames.set(call.id, call.name);
        prompt.push({ role: 'assistant', content: await assistantParts(message, at, nameOf) });
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
              output: await toolResultOutput(message.content, at, { isError }),
            },
          ],
        });
        break;
      }
    }
  }
  return prompt;
}
