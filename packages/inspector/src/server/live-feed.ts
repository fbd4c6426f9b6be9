import type { SkeinEngine, SkeinEventName } from '@skein/core';
import type { InspectorStore } from '../stores/inspector-store.js';

/** One update for the page: an engine event's name and a small payload, or `checkpoint`. */
export interface LiveUpdate {
  readonly event: string;
  readonly data: Readonly<Record<string, unknown>>;
}

// The events a page cares about. `llm:token` is left out: the page redraws from the store, and a
// message lands there (`message:added`) once it is whole.
const FORWARDED: readonly SkeinEventName[] = [
  'thread:started',
  'thread:completed',
  'thread:failed',
  'thread:paused',
  'thread:cancelled',
  'node:started',
  'node:completed',
  'node:failed',
  'tool:call',
  'tool:result',
  'tool:error',
  'message:added',
  'batch:started',
  'operation:applied',
  'checkpoint:saved',
];

function belongsTo(payload: object, threadId: string): boolean {
  const p = payload as { threadId?: unknown; rootThreadId?: unknown; parentThreadId?: unknown };
  return p.threadId === threadId || p.rootThreadId === threadId || p.parentThreadId === threadId;
}

/** Drops what is big and already in the store (messages, tool lists, outputs). */
function slim(payload: object): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(payload))
    if (key !== 'messages' && key !== 'tools' && key !== 'message' && key !== 'output')
      out[key] = value;
  return out;
}

function forward<K extends SkeinEventName>(
  engine: SkeinEngine,
  event: K,
  threadId: string,
  send: (update: LiveUpdate) => void,
): () => void {
  const listener = (payload: object) => {
    if (belongsTo(payload, threadId)) send({ event, data: slim(payload) });
  };
  engine.events.on(event, listener);
  return () => engine.events.off(event, listener);
}

/** Calls `send` for each event of `threadId` (or its branches) until the returned stop is called. */
export function followEngine(
  engine: SkeinEngine,
  threadId: string,
  send: (update: LiveUpdate) => void,
): () => void {
  const stops = FORWARDED.map((event) => forward(engine, event, threadId, send));
  return () => {
    for (const stop of stops) stop();
  };
}

/**
 * Without an engine, the store is the only witness: its checkpoint list is read every
 * `intervalMs` and a `checkpoint` update is sent when the thread's last checkpoint changes (so
 * a change shows within one interval, and never mid-node). Resolves once the first read is done.
 */
export async function followStore(
  store: InspectorStore,
  threadId: string,
  intervalMs: number,
  send: (update: LiveUpdate) => void,
): Promise<() => void> {
  let last: string | undefined;
  let first = true;
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const poll = async () => {
    try {
      const newest = (await store.list(threadId)).at(-1);
      // The first read only records where the thread is; a thread that had no checkpoint yet
      // gets an update for its first one.
      if (!first && newest !== undefined && newest.id !== last)
        send({
          event: 'checkpoint',
          data: { threadId, checkpointId: newest.id, step: newest.step, status: newest.status },
        });
      last = newest?.id;
      first = false;
    } catch {
      // A busy or closing store: the next poll tries again.
    }
    if (!stopped) timer = setTimeout(poll, intervalMs);
  };
  // Resolves after the first read, so what happens after the caller says "ready" is seen.
  await poll();
  return () => {
    stopped = true;
    if (timer !== undefined) clearTimeout(timer);
  };
}
