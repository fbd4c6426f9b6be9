import type { SkeinEngine, SkeinEventName } from '@skein/core';
import type { LiveFeed, SendUpdate } from './live-update.js';

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

/** Drops what is big and already in the store (messages, tool lists, outputs). */
function slim(payload: object): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(payload))
    if (key !== 'messages' && key !== 'tools' && key !== 'message' && key !== 'output')
      out[key] = value;
  return out;
}

/**
 * The engine's events, fanned out to every open stream by thread. The engine's emitter is the
 * user's: it gets one listener per forwarded event while any stream is open, and none after,
 * however many pages follow threads.
 */
export class EngineFeed implements LiveFeed {
  readonly #engine: SkeinEngine;
  readonly #byThread = new Map<string, Set<SendUpdate>>();
  #stopListening: (() => void) | undefined;

  constructor(engine: SkeinEngine) {
    this.#engine = engine;
  }

  async subscribe(threadId: string, send: SendUpdate): Promise<() => void> {
    let senders = this.#byThread.get(threadId);
    if (senders === undefined) {
      senders = new Set();
      this.#byThread.set(threadId, senders);
    }
    senders.add(send);
    this.#stopListening ??= this.#listen();
    const own = senders;
    return () => {
      if (!own.delete(send)) return;
      if (own.size === 0) this.#byThread.delete(threadId);
      if (this.#byThread.size === 0) {
        this.#stopListening?.();
        this.#stopListening = undefined;
      }
    };
  }

  #listen(): () => void {
    const events = this.#engine.events;
    const listeners = FORWARDED.map((event) => {
      const listener = (payload: object) => this.#dispatch(event, payload);
      events.on(event, listener);
      return [event, listener] as const;
    });
    return () => {
      for (const [event, listener] of listeners) events.off(event, listener);
    };
  }

  // A branch's events go to the streams of the branch, of its parent and of its root, once each.
  #dispatch(event: SkeinEventName, payload: object): void {
    const p = payload as { threadId?: unknown; parentThreadId?: unknown; rootThreadId?: unknown };
    let targets: Set<SendUpdate> | undefined;
    for (const id of [p.threadId, p.parentThreadId, p.rootThreadId]) {
      const senders = typeof id === 'string' ? this.#byThread.get(id) : undefined;
      if (senders === undefined) continue;
      targets ??= new Set();
      for (const send of senders) targets.add(send);
    }
    if (targets === undefined) return;
    const update = { event, data: slim(payload) };
    for (const send of targets) send(update);
  }
}
