import { toolErrorContent } from '@skein/core/nodes';
import type { LLMMessage } from '@skein/spec';
import {
  DEFAULT_MAX_OBSERVATION_LENGTH,
  formatFunctionResponse,
} from '../observation/function-response.js';

export interface ObservationOptions {
  /** See `FormatFunctionResponseOptions.ensureAscii`. */
  readonly ensureAscii?: boolean;
}

// The reference's own words for the failures it decides itself (rapidapi.py L369-376, L406).
const REFERENCE_WORDING: Readonly<Record<string, (toolName: string) => string>> = {
  TOOL_TIMEOUT: () => 'Timeout error...',
  TOOL_NOT_FOUND: (toolName) => `No such function name: ${toolName}`,
};

// A call the ReAct client could not make carries, as its error, the observation the model is to
// read (a function response, or one of the reference's Finish replies): it is shown unwrapped.
const CALL_INVALID = 'TOOL_CALL_INVALID';

/**
 * What a ToolLLaMA model reads for a `tool` message: the tool's result as it is, or, for a
 * failure the engine decided itself (`Error [CODE]: message`: unknown tool, bad arguments, a
 * timeout, a tool that threw, such as an unreachable server), the function response the
 * reference writes for its own errors, `{"error": "<text>", "response": ""}`, cut at 1024
 * characters as every observation is. A timeout and an unknown tool get the reference's wording.
 */
export function toolObservation(
  message: LLMMessage<string>,
  options: ObservationOptions = {},
): string {
  const code = message.metadata?.errorCode;
  if (message.metadata?.isError !== true || typeof code !== 'string') return message.content;
  const prefix = toolErrorContent(code, '');
  if (!message.content.startsWith(prefix)) return message.content;
  const text = message.content.slice(prefix.length);
  if (code === CALL_INVALID) return text;
  const wording = Object.hasOwn(REFERENCE_WORDING, code) ? REFERENCE_WORDING[code] : undefined;
  return formatFunctionResponse(
    { error: wording ? wording(message.name ?? '') : text, response: '' },
    {
      maxLength: DEFAULT_MAX_OBSERVATION_LENGTH,
      ...(options.ensureAscii === undefined ? {} : { ensureAscii: options.ensureAscii }),
    },
  );
}
