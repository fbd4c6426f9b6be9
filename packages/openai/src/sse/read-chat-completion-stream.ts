import { providerStreamError } from '../accumulator/provider-error-payload.js';
import type { ToolCallAccumulator } from '../accumulator/tool-call-accumulator.js';
import { invalidChunk } from '../errors/provider-errors.js';
import { SseDecoder, type SseDecoderOptions } from './sse-decoder.js';

/** How a Chat Completions SSE body ended. */
export interface StreamOutcome {
  /** `data: [DONE]` arrived. */
  readonly done: boolean;
  /** SSE events read (including `[DONE]`). */
  readonly events: number;
}

function parsePayload(data: string, event: number): unknown {
  try {
    return JSON.parse(data);
  } catch (error) {
    throw invalidChunk(`SSE event ${event}`, 'the data is not JSON', {
      data: data.length > 200 ? `${data.slice(0, 200)}…` : data,
      cause: error instanceof Error ? error.message : String(error),
    });
  }
}

/**
 * Reads a Chat Completions SSE body into `accumulator`: each `data:` payload is parsed and pushed,
 * `data: [DONE]` ends the response (anything after it is ignored), an `event: error` raises a
 * `ProviderError` (`PROVIDER_STREAM_ERROR`), a line longer than `maxLineLength` one with
 * `STREAM_LIMIT_EXCEEDED`.
 * Errors of the body itself (a dropped connection, an abort) propagate unchanged; the caller
 * decides what they mean.
 */
export async function readChatCompletionStream(
  body: AsyncIterable<Uint8Array>,
  accumulator: ToolCallAccumulator,
  options: SseDecoderOptions = {},
): Promise<StreamOutcome> {
  let done = false;
  let events = 0;
  const decoder = new SseDecoder((data, event) => {
    events++;
    if (done) return;
    if (data === '[DONE]') {
      done = true;
      return;
    }
    if (event === 'error') {
      // Some servers put plain text in an `event: error`; that text is the message.
      let payload: unknown = data;
      try {
        payload = JSON.parse(data);
      } catch {}
      const inner =
        typeof payload === 'object' && payload !== null && 'error' in payload
          ? (payload as { error: unknown }).error
          : payload;
      throw providerStreamError(inner, accumulator.chunks + 1);
    }
    accumulator.push(parsePayload(data, events));
  }, options);
  for await (const bytes of body) decoder.push(bytes);
  decoder.end();
  return { done, events };
}
