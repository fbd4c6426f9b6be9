import { startUIRun, type ThreadRun, type UIRunOptions } from './start-ui-run.js';
import type { UIChunk } from './ui-chunk.js';

export type ToUIMessageStreamOptions = Omit<UIRunOptions, 'prefix'>;

/**
 * A thread's run (start, send or resume) as an AI SDK UI message stream: `start`, a step per
 * model call with its text and tool parts, approvals requested, `finish` (or `error`, `abort`),
 * with Skein's own `data-skein-*` parts. Serve it with `createUIMessageStreamResponse` or read it
 * with the `ai` package's `readUIMessageStream`.
 *
 * ```ts
 * const stream = toUIMessageStream(
 *   (onEvent, signal) => engine.send('chat-1', 'Hello', { onEvent, signal }),
 *   { threadId: 'chat-1' },
 * );
 * ```
 */
export function toUIMessageStream(
  run: ThreadRun,
  options: ToUIMessageStreamOptions,
): ReadableStream<UIChunk> {
  return startUIRun(run, options).stream();
}
