import type { ServerResponse } from 'node:http';

/** The head of every Server-Sent Events answer (SSE is UTF-8 by definition). */
export const EVENT_STREAM_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'content-type': 'text/event-stream',
  'cache-control': 'no-store',
  // Proxies such as nginx would otherwise hold events back until their buffer fills.
  'x-accel-buffering': 'no',
});

/** Writes one Server-Sent Events stream, to a Node response or as a fetch body. */
export interface EventStreamWriter {
  /** One `event: <name>` frame with `data` as JSON; nothing once the stream ended. */
  send(name: string, data: unknown): void;
  /** A comment line, which readers skip: it keeps a quiet stream open through proxies. */
  comment(text: string): void;
  /** Ends the stream. */
  end(): void;
  /** Aborted once the stream ended: by `end`, or because its reader went away. */
  readonly signal: AbortSignal;
}

const frame = (name: string, data: unknown) => `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;
const commentLine = (text: string) => `: ${text.replace(/\n/g, ' ')}\n\n`;

/**
 * An event stream on a Node response. The head is written with the first frame, so a request
 * refused before anything is sent can still be answered with its status.
 */
export function nodeEventStream(res: ServerResponse): EventStreamWriter {
  const ended = new AbortController();
  const stop = () => ended.abort();
  res.once('close', stop);
  const write = (text: string) => {
    if (ended.signal.aborted || res.writableEnded) return;
    if (!res.headersSent) res.writeHead(200, EVENT_STREAM_HEADERS);
    res.write(text);
  };
  return {
    send: (name, data) => write(frame(name, data)),
    comment: (text) => write(commentLine(text)),
    end: () => {
      if (!res.writableEnded) res.end();
      stop();
    },
    signal: ended.signal,
  };
}

/** An event stream as a fetch body: answer with `new Response(body, { headers })`. */
export interface FetchEventStream {
  readonly body: ReadableStream<Uint8Array>;
  readonly headers: Readonly<Record<string, string>>;
  readonly writer: EventStreamWriter;
}

/** An event stream for a fetch handler; cancelling the body (the reader went) ends the writer. */
export function fetchEventStream(): FetchEventStream {
  const ended = new AbortController();
  const encoder = new TextEncoder();
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const body = new ReadableStream<Uint8Array>({
    start: (c) => {
      controller = c;
    },
    cancel: () => ended.abort(),
  });
  const write = (text: string) => {
    if (!ended.signal.aborted) controller.enqueue(encoder.encode(text));
  };
  return {
    body,
    headers: EVENT_STREAM_HEADERS,
    writer: {
      send: (name, data) => write(frame(name, data)),
      comment: (text) => write(commentLine(text)),
      end: () => {
        if (ended.signal.aborted) return;
        ended.abort();
        controller.close();
      },
      signal: ended.signal,
    },
  };
}
