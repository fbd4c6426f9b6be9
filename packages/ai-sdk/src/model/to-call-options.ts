import type { LLMRequest, ToolChoice, ToolNameCodec } from '@skein/spec';
import type { AiSdkCallOptions } from './language-model.js';
import { type NameOf, toPrompt } from './to-prompt.js';

/**
 * Every tool name one request carries (offered tools, names in the history, a forced choice),
 * encoded together so a clash among them is settled before anything is sent. Without a codec,
 * names go out as they are.
 */
function nameEncoder(request: LLMRequest, codec: ToolNameCodec | undefined): NameOf {
  if (codec === undefined) return (name) => name;
  const names = new Set<string>();
  for (const tool of request.tools) names.add(tool.name);
  for (const message of request.messages)
    for (const call of message.toolCalls ?? []) if (call.name !== '') names.add(call.name);
  const choice = request.toolChoice;
  if (typeof choice === 'object' && choice !== null) names.add(choice.name);
  const list = [...names];
  const encodings = codec.encodeMany(list);
  const encoded = new Map(list.map((name, i) => [name, encodings[i]!]));
  return (name) => encoded.get(name) ?? codec.encode(name);
}

function toolChoiceOf(choice: ToolChoice, nameOf: NameOf): unknown {
  return typeof choice === 'string'
    ? { type: choice }
    : { type: 'tool', toolName: nameOf(choice.name) };
}

/**
 * The `doStream` options for a Skein request. `providerOptions` pass through untouched (keyed by
 * provider, as the AI SDK expects); `model` of the request is not used, since an AI SDK model
 * object is one model.
 */
export async function toCallOptions(
  request: LLMRequest,
  codec: ToolNameCodec | undefined,
  signal: AbortSignal | undefined,
  specification: 'v2' | 'v3' = 'v3',
): Promise<AiSdkCallOptions> {
  const nameOf = nameEncoder(request, codec);
  const format = request.responseFormat;
  return {
    prompt: await toPrompt(request.messages, nameOf, specification),
    ...(request.tools.length === 0
      ? {}
      : {
          tools: request.tools.map((tool) => ({
            type: 'function',
            name: nameOf(tool.name),
            description: tool.description,
            inputSchema: tool.parameters,
            ...(tool.strict === undefined ? {} : { strict: tool.strict }),
          })),
        }),
    ...(request.toolChoice === undefined
      ? {}
      : { toolChoice: toolChoiceOf(request.toolChoice, nameOf) }),
    ...(request.temperature === undefined ? {} : { temperature: request.temperature }),
    ...(request.maxTokens === undefined ? {} : { maxOutputTokens: request.maxTokens }),
    ...(request.stop === undefined || request.stop.length === 0
      ? {}
      : { stopSequences: [...request.stop] }),
    ...(format === undefined
      ? {}
      : {
          responseFormat: {
            type: 'json',
            schema: format.schema,
            ...(format.name === undefined ? {} : { name: format.name }),
          },
        }),
    ...(request.providerOptions === undefined ? {} : { providerOptions: request.providerOptions }),
    ...(signal === undefined ? {} : { abortSignal: signal }),
  };
}
