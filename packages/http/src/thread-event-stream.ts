import type { ServerResponse } from 'node:http';
import type { ThreadEvent, ThreadEventName, ThreadResult } from '@skein/core';

/** What a chat front end shows by default: tokens, tool activity, pauses and endings. */
export const DEFAULT_STREAMED_EVENTS: readonly ThreadEventName[] = Object.freeze([
  'llm:token',
  'tool:call',
  'tool:result',
  'tool:error',
  'node:started',
  'node:completed',
  'thread:paused',
  'thread:completed',
  'thread:failed',
  'thread:cancelled',
]);

export interface ThreadEventStream {
  /** Pass as `onEvent` to `send`, `resume`, `claimResume` or `run`. */
  readonly onEvent: (event: ThreadEvent) => void;
  /** Writes the run's result as the last event (`result`) and ends the response. */
  end(result: ThreadResult): void;
  /** Writes an `error` event (a failure after the stream began) and ends the response. */
  fail(error: unknown): void;
}

/**
 * Answers `res` with Server-Sent Events: one `event: <name>` frame per thread event (its payload
 * as JSON `data`), then `result` with the run's status, output, error and the calls awaiting
 * approval. The head is written at the first frame, so a request refused before its run starts
 * can still be answered with a status.
 */
export function threadEventStream(
  res: ServerResponse,
  events: readonly ThreadEventName[] = DEFAULT_STREAMED_EVENTS,
): ThreadEventStream {
  const wanted = new Set<string>(events);
  const write = (name: string, data: unknown) => {
    if (res.writableEnded) return;
    if (!res.headersSent)
      res.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-store',
        'x-accel-buffering': 'no',
      });
    res.write(`event: ${name}\ndata: ${JSON.stringify(data)}\n\n`);
  };
  return {
    onEvent: (event) => {
      if (wanted.has(event.type)) write(event.type, event);
    },
    end: (result) => {
      write('result', {
        threadId: result.threadId,
        status: result.status,
        output: result.output,
        ...(result.error
          ? { error: { code: result.error.code, message: result.error.message } }
          : {}),
        ...(result.approvals ? { approvals: result.approvals } : {}),
      });
      res.end();
    },
    fail: (error) => {
      const { code, message } = error as { code?: unknown; message?: unknown };
      write('error', {
        code: typeof code === 'string' ? code : 'INTERNAL_ERROR',
        message: String(message),
      });
      res.end();
    },
  };
}
