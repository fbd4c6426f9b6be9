import { fetchEventStream } from '@skein/http';
import type { Context } from 'hono';
import type { LiveFeed, LiveUpdate } from './live-update.js';
import type { OpenStreams } from './open-streams.js';

// A comment now and then keeps proxies and idle timeouts from closing a quiet stream.
const KEEP_ALIVE_MS = 15_000;

/**
 * A thread's live updates as Server-Sent Events (`@skein/http`'s writer): `ready` once the feed
 * is followed, then each update, until the reader goes or the server closes. The stream's
 * subscription is dropped either way.
 */
export function liveUpdateStream(
  c: Context,
  threadId: string,
  feed: LiveFeed,
  streams: OpenStreams,
): Response {
  const { body, headers, writer } = fetchEventStream();
  // Updates that come before `ready` wait for it.
  let early: LiveUpdate[] | undefined = [];
  let unsubscribe: (() => void) | undefined;
  const keepAlive = setInterval(() => writer.comment('keep-alive'), KEEP_ALIVE_MS);
  let forget: () => void = () => undefined;
  writer.signal.addEventListener(
    'abort',
    () => {
      clearInterval(keepAlive);
      unsubscribe?.();
      forget();
    },
    { once: true },
  );
  // An inspector already closing ends the stream at once.
  forget = streams.add(() => writer.end());
  const send = (update: LiveUpdate) => writer.send(update.event, update.data);
  feed
    .subscribe(threadId, (update) => (early ? early.push(update) : send(update)))
    .then(
      (stop) => {
        if (writer.signal.aborted) return stop();
        unsubscribe = stop;
        writer.send('ready', { threadId });
        for (const update of early ?? []) send(update);
        early = undefined;
      },
      () => writer.end(),
    );
  return c.body(body, 200, headers);
}
