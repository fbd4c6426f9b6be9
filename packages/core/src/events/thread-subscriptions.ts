import type { SkeinEmitter } from './emitter.js';
import {
  THREAD_EVENT_NAMES,
  type ThreadEvent,
  type ThreadEventListener,
  type ThreadEventName,
} from './thread-event.js';

type Forward = (payload: object) => void;

/** The threads an event concerns: its own, and for a branch its parent and its top-level thread. */
function concerned(payload: object): string[] {
  const { threadId, parentThreadId, rootThreadId } = payload as {
    threadId?: unknown;
    parentThreadId?: unknown;
    rootThreadId?: unknown;
  };
  const ids: string[] = [];
  for (const id of [threadId, parentThreadId, rootThreadId])
    if (typeof id === 'string' && !ids.includes(id)) ids.push(id);
  return ids;
}

/**
 * Listeners of single threads over the engine's one emitter. The emitter is listened to only
 * while someone subscribes, so threads nobody follows build no event payloads. A thread's
 * listeners also hear its branches and child threads (their events name it as parent or root).
 */
export class ThreadSubscriptions {
  readonly #emitter: SkeinEmitter;
  readonly #byThread = new Map<string, Set<ThreadEventListener>>();
  #forwards: Map<ThreadEventName, Forward> | undefined;

  constructor(emitter: SkeinEmitter) {
    this.#emitter = emitter;
  }

  /** Calls `listener` with every event of `threadId` until the returned function is called. */
  subscribe(threadId: string, listener: ThreadEventListener): () => void {
    let listeners = this.#byThread.get(threadId);
    if (!listeners) {
      listeners = new Set();
      this.#byThread.set(threadId, listeners);
    }
    // A wrapper per subscription: the same function subscribed twice is two subscriptions.
    const entry: ThreadEventListener = (event) => listener(event);
    listeners.add(entry);
    this.#attach();
    let subscribed = true;
    return () => {
      if (!subscribed) return;
      subscribed = false;
      listeners.delete(entry);
      if (listeners.size === 0) this.#byThread.delete(threadId);
      if (this.#byThread.size === 0) this.#detach();
    };
  }

  #attach(): void {
    if (this.#forwards) return;
    this.#forwards = new Map();
    for (const name of THREAD_EVENT_NAMES) {
      const forward: Forward = (payload) => this.#deliver(name, payload);
      this.#forwards.set(name, forward);
      this.#emitter.on(name, forward as never);
    }
  }

  #detach(): void {
    if (!this.#forwards) return;
    for (const [name, forward] of this.#forwards) this.#emitter.off(name, forward as never);
    this.#forwards = undefined;
  }

  #deliver(name: ThreadEventName, payload: object): void {
    let event: ThreadEvent | undefined;
    for (const id of concerned(payload)) {
      const listeners = this.#byThread.get(id);
      if (!listeners) continue;
      event ??= { type: name, ...payload } as ThreadEvent;
      // A listener that throws must not keep the thread's other listeners from hearing it.
      for (const listener of [...listeners]) {
        try {
          listener(event);
        } catch (error) {
          this.#emitter.listenerFailed(name, payload, error);
        }
      }
    }
  }
}
