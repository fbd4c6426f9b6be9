import { SkeinError } from '@skein/spec';
import type OpenAI from 'openai';
import { ToolCallAccumulator } from '../accumulator/tool-call-accumulator.js';
import type { AccumulatorResult } from '../accumulator/types.js';
import {
  invalidChunk,
  requestAborted,
  requestTimedOut,
  streamInterrupted,
} from '../errors/provider-errors.js';
import { readChatCompletionStream } from '../sse/read-chat-completion-stream.js';
import { type ByteStream, bodyChunks } from './body-chunks.js';
import { type CallContext, requestOptions } from './call-context.js';
import { completionToChunk } from './completion-to-chunk.js';
import { IdleWatchdog } from './idle-watchdog.js';
import { mapSdkError } from './map-sdk-error.js';

type StreamingBody = OpenAI.Chat.Completions.ChatCompletionCreateParamsStreaming;

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? ` (${error.cause.message})` : '';
  return `${error.message}${cause}`;
}

/**
 * Sends a streaming request through the `openai` package (which retries 429/5xx before any byte
 * is read) and reads the raw SSE body with this package's decoder and accumulator. The SDK's own
 * stream is not used: it ends silently on abort and cannot tell a dropped connection apart.
 */
export async function streamCompletion(
  openai: OpenAI,
  body: Record<string, unknown>,
  context: CallContext,
): Promise<AccumulatorResult> {
  const { model, signal } = context;
  const controller = new AbortController();
  const onAbort = () => controller.abort(signal?.reason);
  signal?.addEventListener('abort', onAbort, { once: true });
  let idle = false;
  let watchdog: IdleWatchdog | undefined;
  try {
    const response = await openai.chat.completions
      .create(body as unknown as StreamingBody, requestOptions(controller.signal, context))
      .asResponse()
      .catch((error: unknown) => {
        throw mapSdkError(error, model, signal, context.timeoutMs);
      });
    const accumulator = new ToolCallAccumulator({
      onEvent: context.events.emit,
      maxTextLength: context.limits.maxTextLength,
    });
    const type = response.headers.get('content-type') ?? '';
    if (!type.includes('text/event-stream') && type.includes('json')) {
      // A server that ignores `stream: true` answers with a whole completion.
      const completion: unknown = await response.json().catch((error: unknown) => {
        throw invalidChunk('the JSON response', 'not JSON', { cause: describe(error) });
      });
      accumulator.push(completionToChunk(completion));
      return accumulator.finish();
    }
    if (response.body === null) {
      throw streamInterrupted('the response has no body', { chunks: 0, model });
    }
    const timeoutMs = context.timeoutMs;
    if (timeoutMs !== undefined) {
      watchdog = new IdleWatchdog(timeoutMs, () => {
        idle = true;
        controller.abort(requestTimedOut(model, 'stream', timeoutMs));
      });
    }
    let done: boolean;
    try {
      const chunks = bodyChunks(response.body as unknown as ByteStream, () => watchdog?.touch());
      const lines = { maxLineLength: context.limits.maxLineLength };
      done = (await readChatCompletionStream(chunks, accumulator, lines)).done;
    } catch (error) {
      if (context.events.threw(error)) throw error;
      if (signal?.aborted) throw requestAborted(model, 'stream', signal.reason);
      if (idle) throw requestTimedOut(model, 'stream', timeoutMs, error);
      if (SkeinError.isInstance(error)) throw error;
      throw streamInterrupted(describe(error), { chunks: accumulator.chunks, model }, error);
    }
    if (!done && !accumulator.finishReasonSeen) {
      throw streamInterrupted('the body ended without "data: [DONE]" or a finish reason', {
        chunks: accumulator.chunks,
        model,
      });
    }
    return accumulator.finish();
  } finally {
    watchdog?.stop();
    signal?.removeEventListener('abort', onAbort);
  }
}
