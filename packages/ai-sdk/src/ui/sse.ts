import type { ServerResponse } from 'node:http';
import { sendFetchResponse } from '@skein/http';
import type { UIChunk } from './ui-chunk.js';

/** The headers of a UI message stream response, as the `ai` package sends them. */
export const UI_MESSAGE_STREAM_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'content-type': 'text/event-stream',
  'cache-control': 'no-cache',
  connection: 'keep-alive',
  'x-vercel-ai-ui-message-stream': 'v1',
  // Proxies such as nginx would otherwise hold tokens back until their buffer fills.
  'x-accel-buffering': 'no',
});

/** What `new Headers()` takes (the DOM lib, where `HeadersInit` is declared, is not loaded). */
type HeadersInitLike = ConstructorParameters<typeof Headers>[0];

/** One server-sent event per part. */
function sseFrame(chunk: UIChunk): string {
  return `data: ${JSON.stringify(chunk)}\n\n`;
}

/** The last frame of every UI message stream. */
const SSE_DONE = 'data: [DONE]\n\n';

/** `headers` over the stream's own (a caller may add to them, not drop the protocol marker). */
function mergedHeaders(headers: HeadersInitLike | undefined): Headers {
  const merged = new Headers(headers);
  for (const [name, value] of Object.entries(UI_MESSAGE_STREAM_HEADERS))
    if (!merged.has(name)) merged.set(name, value);
  return merged;
}

export interface UIMessageStreamResponseInit {
  readonly stream: ReadableStream<UIChunk>;
  readonly status?: number;
  readonly statusText?: string;
  readonly headers?: HeadersInitLike;
}

/**
 * A `Response` carrying a UI message stream: what a route handler returns to `useChat`. The same
 * wire format as the `ai` package's function of this name: `data: <json>` per part, then
 * `data: [DONE]`.
 */
export function createUIMessageStreamResponse(init: UIMessageStreamResponseInit): Response {
  const encoder = new TextEncoder();
  const body = init.stream.pipeThrough(
    new TransformStream<UIChunk, Uint8Array>({
      transform: (chunk, controller) => controller.enqueue(encoder.encode(sseFrame(chunk))),
      flush: (controller) => controller.enqueue(encoder.encode(SSE_DONE)),
    }),
  );
  return new Response(body, {
    status: init.status ?? 200,
    ...(init.statusText === undefined ? {} : { statusText: init.statusText }),
    headers: mergedHeaders(init.headers),
  });
}

/** Writes a UI message stream to a Node `ServerResponse`, frame by frame, and ends it. */
export function pipeUIMessageStreamToResponse(options: {
  readonly response: ServerResponse;
  readonly stream: ReadableStream<UIChunk>;
  readonly status?: number;
}): Promise<void> {
  const { response, stream, status } = options;
  return sendFetchResponse(
    response,
    createUIMessageStreamResponse({ stream, ...(status === undefined ? {} : { status }) }),
  );
}
