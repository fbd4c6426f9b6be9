import type { ServerResponse } from 'node:http';
import type { SendResult, ThreadEvent, ThreadEventName } from '@skein/core';
import { errorAnswer } from './error-answer.js';
import { type EventStreamWriter, nodeEventStream } from './event-stream.js';

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
  /**
   * Writes the run's result as the last event (`result`) and ends the response; a message a
   * send posted for a turn elsewhere (`result.posted`) is written with its `posted` place.
   */
  end(result: SendResult): void;
  /** Writes an `error` event (a failure after the stream began) and ends the response. */
  fail(error: unknown): void;
}

/**
 * Streams a run as Server-Sent Events, to a Node response or to an `EventStreamWriter` (a fetch
 * handler's, from `fetchEventStream`): one `event: <name>` frame per thread event (its payload
 * as JSON `data`), then `result` with the run's status, output, error and the calls awaiting
 * approval. On a Node response the head is written at the first frame, so a request refused
 * before its run starts can still be answered with a status.
 */
export function threadEventStream(
  to: ServerResponse | EventStreamWriter,
  events: readonly ThreadEventName[] = DEFAULT_STREAMED_EVENTS,
): ThreadEventStream {
  const wanted = new Set<string>(events);
  const out = 'writeHead' in to ? nodeEventStream(to) : to;
  return {
    onEvent: (event) => {
      if (wanted.has(event.type)) out.send(event.type, event);
    },
    end: (result) => {
      out.send('result', {
        threadId: result.threadId,
        status: result.status,
        output: result.output,
        ...(result.error
          ? { error: { code: result.error.code, message: result.error.message } }
          : {}),
        ...(result.approvals ? { approvals: result.approvals } : {}),
        ...('posted' in result ? { posted: result.posted } : {}),
      });
      out.end();
    },
    fail: (error) => {
      out.send('error', errorAnswer(error).body.error);
      out.end();
    },
  };
}
