import type { LLMRequest, ToolChoice, ToolNameCodec } from '@skein/spec';
import { UNNAMED_TOOL_PLACEHOLDER } from './message-metadata.js';
import type { PartSourceOptions } from './parts/part-options.js';
import { type NameOf, toOpenAITool } from './to-openai-messages.js';
import { toWireMessages } from './to-wire-messages.js';

export interface BodySettings {
  readonly model: string;
  readonly stream: boolean;
  readonly parallelToolCalls: boolean | undefined;
  readonly maxTokensField: 'max_tokens' | 'max_completion_tokens';
  /** Where the bytes of audio and files by URL or by ref come from. */
  readonly parts?: PartSourceOptions;
}

/**
 * Every tool name one request carries (offered tools, names in the history, a forced tool
 * choice), encoded together so a clash among them is settled before anything is sent.
 */
function nameEncoder(request: LLMRequest, codec: ToolNameCodec): NameOf {
  const names = new Set<string>();
  let unnamed = false;
  for (const tool of request.tools) names.add(tool.name);
  for (const message of request.messages) {
    for (const call of message.toolCalls ?? []) {
      if (call.name === '') unnamed = true;
      else names.add(call.name);
    }
  }
  const choice = request.toolChoice;
  if (typeof choice === 'object' && choice !== null) names.add(choice.name);
  const list = [...names];
  const encoded = new Map<string, string>();
  const encodings = codec.encodeMany(list);
  for (let i = 0; i < list.length; i++) encoded.set(list[i]!, encodings[i]!);
  const placeholder =
    unnamed && !codec.fits(UNNAMED_TOOL_PLACEHOLDER)
      ? codec.encode(UNNAMED_TOOL_PLACEHOLDER)
      : UNNAMED_TOOL_PLACEHOLDER;
  return (name) => (name === '' ? placeholder : encoded.get(name)!);
}

function toolChoiceParam(choice: ToolChoice, nameOf: NameOf): unknown {
  return typeof choice === 'string'
    ? choice
    : { type: 'function', function: { name: nameOf(choice.name) } };
}

/** Structured output as Chat Completions asks for it: a named JSON Schema, strict only if asked. */
function responseFormatParam({ responseFormat }: LLMRequest): unknown {
  const format = responseFormat!;
  return {
    type: 'json_schema',
    json_schema: {
      name: format.name ?? 'output',
      schema: format.schema,
      strict: format.strict ?? false,
    },
  };
}

/**
 * The Chat Completions body for a request. `providerOptions` go in first, so the fields this
 * adapter owns (model, messages, tools, stream) cannot be overridden by accident; a provider's
 * `stream_options` is kept and `include_usage` added to it.
 */
export async function buildRequestBody(
  request: LLMRequest,
  settings: BodySettings,
  codec: ToolNameCodec,
): Promise<Record<string, unknown>> {
  const nameOf = nameEncoder(request, codec);
  const provider = request.providerOptions ?? {};
  const messages = await toWireMessages(request.messages, nameOf, settings.parts ?? {});
  const body: Record<string, unknown> = {
    ...provider,
    model: request.model ?? settings.model,
    messages,
    stream: settings.stream,
  };
  if (settings.stream) {
    const extra = provider.stream_options;
    body.stream_options = {
      ...(typeof extra === 'object' && extra !== null ? extra : {}),
      include_usage: true,
    };
  }
  if (request.tools.length !== 0) {
    body.tools = request.tools.map((tool) => toOpenAITool(tool, nameOf));
    if (settings.parallelToolCalls !== undefined) {
      body.parallel_tool_calls = settings.parallelToolCalls;
    }
  }
  if (request.toolChoice !== undefined)
    body.tool_choice = toolChoiceParam(request.toolChoice, nameOf);
  if (request.temperature !== undefined) body.temperature = request.temperature;
  if (request.maxTokens !== undefined) body[settings.maxTokensField] = request.maxTokens;
  if (request.stop !== undefined && request.stop.length !== 0) body.stop = [...request.stop];
  if (request.responseFormat !== undefined) body.response_format = responseFormatParam(request);
  return body;
}
