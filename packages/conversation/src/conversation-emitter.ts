import { EventEmitter } from 'eventemitter3';
import type {
  ConversationEventMap,
  ConversationEventName,
  ConversationListeners,
} from './conversation-events.js';

type AnyListener = (payload: never) => void;

/**
 * The manager's events. Every listener runs inside its own try/catch: by the time it runs the
 * change is made (a message stored, a batch started), so its error must neither reach the caller
 * as if the call had failed nor keep later listeners from running. It goes to the `error`
 * listeners instead, or to `console.error` when there are none (or when an `error` listener
 * throws), like DOM `EventTarget` reports a listener's exception without failing `dispatchEvent`.
 */
export class ConversationEmitter {
  readonly #emitter = new EventEmitter<ConversationListeners>();
  // The wrapper registered for each listener, so off() can find it.
  readonly #wrappers = new Map<ConversationEventName, Map<AnyListener, AnyListener[]>>();

  on<K extends ConversationEventName>(event: K, listener: ConversationListeners[K]): void {
    const safe = (payload: ConversationEventMap[K]) => {
      try {
        listener(payload);
      } catch (error) {
        this.#report(event, error);
      }
    };
    const byListener = this.#wrappers.get(event) ?? new Map<AnyListener, AnyListener[]>();
    this.#wrappers.set(event, byListener);
    const list = byListener.get(listener) ?? [];
    list.push(safe as AnyListener);
    byListener.set(listener, list);
    this.#emitter.on(event, safe as never);
  }

  off<K extends ConversationEventName>(event: K, listener: ConversationListeners[K]): void {
    const byListener = this.#wrappers.get(event);
    const list = byListener?.get(listener);
    const safe = list?.pop();
    if (!safe) return;
    if (list!.length === 0) byListener!.delete(listener);
    this.#emitter.off(event, safe as never);
  }

  has(event: ConversationEventName): boolean {
    return this.#emitter.listenerCount(event) > 0;
  }

  emit<K extends ConversationEventName>(event: K, payload: ConversationEventMap[K]): void {
    (this.#emitter.emit as (name: K, value: ConversationEventMap[K]) => boolean)(event, payload);
  }

  #report(event: ConversationEventName, error: unknown): void {
    if (event !== 'error' && this.has('error')) {
      this.emit('error', { error, event });
      return;
    }
    console.error(`@skein/conversation: a "${event}" listener threw`, error);
  }
}
