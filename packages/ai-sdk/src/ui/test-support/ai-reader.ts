import {
  parseJsonEventStream,
  readUIMessageStream,
  type UIMessage,
  uiMessageChunkSchema,
} from 'ai';
import { expect } from 'vitest';
import type { UIChunk } from '../ui-chunk.js';

/**
 * Reads a UI message stream response the way `useChat` does: checks the protocol headers and the
 * final `data: [DONE]`, validates every part with the `ai` package's own schema, and returns the
 * parts.
 */
export async function readResponseChunks(response: Response): Promise<UIChunk[]> {
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toBe('text/event-stream');
  expect(response.headers.get('x-vercel-ai-ui-message-stream')).toBe('v1');
  const [forText, forParts] = response.body!.tee();
  const parsed = parseJsonEventStream({ stream: forParts, schema: uiMessageChunkSchema });
  const chunks: UIChunk[] = [];
  const reader = parsed.getReader();
  const text = new Response(forText).text();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (!value.success) throw value.error;
    chunks.push(value.value as UIChunk);
  }
  expect((await text).endsWith('data: [DONE]\n\n')).toBe(true);
  return chunks;
}

/** The last message `readUIMessageStream` builds from `chunks` (continuing `message` if given). */
export async function lastMessage(
  chunks: readonly UIChunk[] | ReadableStream<UIChunk>,
  message?: UIMessage,
): Promise<UIMessage> {
  const stream =
    chunks instanceof ReadableStream
      ? chunks
      : new ReadableStream<UIChunk>({
          start(controller) {
            for (const c of chunks) controller.enqueue(c);
            controller.close();
          },
        });
  let last: UIMessage | undefined;
  for await (const m of readUIMessageStream({
    stream: stream as never,
    ...(message ? { message } : {}),
    terminateOnError: true,
  }))
    last = m;
  return last!;
}

/**
 * The message `readUIMessageStream` builds from `chunks`, and the errors it reported (an `error`
 * part ends a run that failed; the reader hands it to `onError` and goes on).
 */
export async function readAnswer(
  chunks: readonly UIChunk[],
): Promise<{ message: UIMessage; errors: string[] }> {
  const errors: string[] = [];
  const stream = new ReadableStream<UIChunk>({
    start(controller) {
      for (const c of chunks) controller.enqueue(c);
      controller.close();
    },
  });
  let message: UIMessage | undefined;
  for await (const m of readUIMessageStream({
    stream: stream as never,
    onError: (error) => errors.push(error instanceof Error ? error.message : String(error)),
  }))
    message = m;
  return { message: message!, errors };
}
