import { EventEmitter } from 'eventemitter3';
import type {
  ConversationEventMap,
  ConversationEventName,
  ConversationListeners,
  ConversationObserver,
} from './conversation-events.js';

type AnyListener = (payload: never) => void;

interface Wrapper {
  readonly event: ConversationEventName;
  readonly listener: AnyListener;
  readonly safe: AnyListener;
}

/**
 * The manager's events. Every listener runs inside its own try/catch: by the time it runs the
 * change is made (a message stored, a batch started), so its error must neither reach the caller
 * as if the call had failed nor keep later listeners from running. It goes to the `error`
 * listeners instead, or to `console.error` when there are none (or when an `error` listener
 * throws), like DOM `EventTarget` reports a listener's exception without failing `dispatchEvent`.
 */
export class ConversationEmitter {
  // Made on the first `on`: every thread has a conversation, many never get a listener, and a
  // fan-out keeps thousands of them alive at once.
  #emitter: EventEmitter<ConversationListeners> | undefined;
  // The wrapper registered for each (event, listener), oldest first, so off() can find it.
  #wrappers: Wrapper[] | undefined;
  readonly #observer: ConversationObserver | undefined;

  constructor(observer?: ConversationObserver) {
    this.#observer = observer;
  }

  on<K extends ConversationEventName>(event: K, listener: ConversationListeners[K]): void {
    const safe = (payload: ConversationEventMap[K]) => {
      try {
        listener(payload);
      } catch (error) {
        this.#report(event, error);
      }
    };
    this.#wrappers ??= [];
    this.#wrappers.push({ event, listener: listener as AnyListener, safe: safe as AnyListener });
    this.#emitter ??= new EventEmitter<ConversationListeners>();
    this.#emitter.on(event, safe as never);
  }

  off<K extends ConversationEventName>(event: K, listener: ConversationListeners[K]): void {
    const wrappers = this.#wrappers;
    if (!wrappers) return;
    for (let i = wrappers.length - 1; i >= 0; i--) {
      const w = wrappers[i]!;
      if (w.event !== event || w.listener !== (listener as AnyListener)) continue;
      wrappers.splice(i, 1);
      this.#emitter!.off(event, w.safe as never);
      return;
    }
  }

  has(event: ConversationEventName): boolean {
    const emitter = this.#emitter;
    if (emitter !== undefined && emitter.listenerCount(event) > 0) return true;
    return this.#observer?.wants(event) === true;
  }

  /** The observer first (it was there before any listener), then the listeners in order. */
  emit<K extends ConversationEventName>(event: K, payload: ConversationEventMap[K]): void {
    const observer = this.#observer;
    if (observer?.wants(event)) {
      try {
        observer.notify(event, payload);
      } catch (error) {
        this.#report(event, error);
      }
    }
    const emitter = this.#emitter;
    if (emitter === undefined) return;
    (emitter.emit as (name: K, value: ConversationEventMap[K]) => boolean)(event, payload);
  }

  #report(event: ConversationEventName, error: unknown): void {
    if (event !== 'error' && this.has('error')) {
      this.emit('error', { error, event });
      return;
    }
    console.error(`@skein/conversation: a "${event}" listener threw`, error);
  }
}
