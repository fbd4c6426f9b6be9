import type { LLMMessage, LLMResponse, ToolCall, ToolNameCodec } from '@skein/spec';
import type { AccumulatorResult, AccumulatorWarning } from '../accumulator/types.js';
import { mapFinishReason } from './map-finish-reason.js';
import {
  METADATA_ENCODED_TOOL_NAMES,
  METADATA_REASONING,
  METADATA_REFUSAL,
  METADATA_TOOL_CALL_EXTRA_CONTENT,
} from './message-metadata.js';

/**
 * The assistant message for an assembled response, with tool names decoded to the originals.
 * A name the codec never produced (the model made one up) is kept as it is, with a warning, so
 * the engine answers "no such tool" instead of the whole call failing.
 */
export function toLLMResponse(
  result: AccumulatorResult,
  codec: ToolNameCodec,
  model: string,
  warn: (warning: AccumulatorWarning) => void,
): LLMResponse {
  // Keyed by the model's tool-call ids: null prototypes keep an id `__proto__` an entry.
  const encodedNames: Record<string, string> = Object.create(null);
  const extras: Record<string, unknown> = Object.create(null);
  let renamed = false;
  let extra = false;
  const toolCalls: ToolCall[] = result.toolCalls.map((call) => {
    let name = call.name;
    if (name !== '') {
      const original = codec.tryDecode(name);
      if (original === undefined) {
        warn({
          code: 'TOOL_NAME_UNKNOWN',
          message: `The model called "${name}", a tool name it was not given; passed on unchanged`,
          details: { id: call.id, name },
        });
      } else if (original !== name) {
        encodedNames[call.id] = name;
        renamed = true;
        name = original;
      }
    }
    if (call.extraContent !== undefined) {
      extras[call.id] = call.extraContent;
      extra = true;
    }
    return {
      id: call.id,
      name,
      arguments: call.arguments,
      ...(call.error === undefined ? {} : { error: call.error }),
    };
  });
  const metadata: Record<string, unknown> = {};
  if (result.reasoning !== '') metadata[METADATA_REASONING] = result.reasoning;
  if (result.refusal !== '') metadata[METADATA_REFUSAL] = result.refusal;
  if (renamed) metadata[METADATA_ENCODED_TOOL_NAMES] = encodedNames;
  if (extra) metadata[METADATA_TOOL_CALL_EXTRA_CONTENT] = extras;
  const message: LLMMessage = {
    role: 'assistant',
    content: result.text === '' ? result.refusal : result.text,
    ...(toolCalls.length === 0 ? {} : { toolCalls }),
    ...(Object.keys(metadata).length === 0 ? {} : { metadata }),
  };
  return {
    message,
    finishReason: mapFinishReason(result.finishReason, toolCalls.length !== 0),
    ...(result.usage === undefined ? {} : { usage: result.usage }),
    model: result.model ?? model,
  };
}
