import type { InspectorStore } from '../stores/inspector-store.js';
import type { LiveFeed, SendUpdate } from './live-update.js';

interface Poller {
  readonly senders: Set<SendUpdate>;
  /** Settles once the first read is done. */
  readonly ready: Promise<void>;
  timer: ReturnType<typeof setTimeout> | undefined;
  stopped: boolean;
}

/**
 * Without an engine, the store is the only witness: a thread's checkpoint list is read every
 * `intervalMs` and a `checkpoint` update sent when its last checkpoint changes (so a change shows
 * within one interval, and never mid-node). One poller per thread, however many streams follow it.
 */
export class StoreFeed implements LiveFeed {
  readonly #store: InspectorStore;
  readonly #intervalMs: number;
  readonly #pollers = new Map<string, Poller>();

  constructor(store: InspectorStore, intervalMs: number) {
    this.#store = store;
    this.#intervalMs = intervalMs;
  }

  async subscribe(threadId: string, send: SendUpdate): Promise<() => void> {
    const poller = this.#pollers.get(threadId) ?? this.#start(threadId);
    poller.senders.add(send);
    await poller.ready;
    return () => {
      if (!poller.senders.delete(send) || poller.senders.size > 0) return;
      poller.stopped = true;
      if (poller.timer !== undefined) clearTimeout(poller.timer);
      if (this.#pollers.get(threadId) === poller) this.#pollers.delete(threadId);
    };
  }

  #start(threadId: string): Poller {
    let last: string | undefined;
    let first = true;
    const poll = async (): Promise<void> => {
      try {
        const newest = (await this.#store.list(threadId)).at(-1);
        // The first read only records where the thread is.
        if (!first && newest !== undefined && newest.id !== last) {
          const update = {
            event: 'checkpoint',
            data: { threadId, checkpointId: newest.id, step: newest.step, status: newest.status },
          };
          for (const send of poller.senders) send(update);
        }
        last = newest?.id;
        first = false;
      } catch {
        // A busy or closing store: the next poll tries again.
      }
      if (!poller.stopped) poller.timer = setTimeout(poll, this.#intervalMs);
    };
    const poller: Poller = {
      senders: new Set(),
      ready: Promise.resolve().then(poll),
      timer: undefined,
      stopped: false,
    };
    this.#pollers.set(threadId, poller);
    return poller;
  }
}
