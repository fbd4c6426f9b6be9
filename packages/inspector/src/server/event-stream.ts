import type { Context } from 'hono';
import { streamSSE } from 'hono/streaming';
import type { LiveFeed, LiveUpdate } from './live-update.js';
import type { OpenStreams } from './open-streams.js';

// A comment now and then keeps proxies and idle timeouts from closing a quiet stream.
const KEEP_ALIVE_MS = 15_000;

/**
 * Server-sent events for one thread: `ready` once the feed is followed, then its updates, until
 * the reader goes or the server closes. The stream's subscription is dropped either way.
 */
export function threadEventStream(
  c: Context,
  threadId: string,
  feed: LiveFeed,
  streams: OpenStreams,
): Response {
  return streamSSE(c, async (stream) => {
    const queue: LiveUpdate[] = [];
    let wake: (() => void) | undefined;
    let finished = false;
    const finish = () => {
      finished = true;
      wake?.();
    };
    const forget = streams.add(finish);
    stream.onAbort(finish);
    let unsubscribe: (() => void) | undefined;
    try {
      unsubscribe = await feed.subscribe(threadId, (update) => {
        queue.push(update);
        wake?.();
      });
      if (finished) return;
      await stream.writeSSE({ event: 'ready', data: JSON.stringify({ threadId }) });
      while (!finished) {
        while (queue.length > 0) {
          const update = queue.shift()!;
          await stream.writeSSE({ event: update.event, data: JSON.stringify(update.data) });
        }
        let timer: ReturnType<typeof setTimeout> | undefined;
        await new Promise<void>((resolve) => {
          wake = resolve;
          timer = setTimeout(resolve, KEEP_ALIVE_MS);
        });
        clearTimeout(timer);
        wake = undefined;
        if (queue.length === 0 && !finished) await stream.write(': keep-alive\n\n');
      }
    } finally {
      unsubscribe?.();
      forget();
    }
  });
}
