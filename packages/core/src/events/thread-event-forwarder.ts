import type {
  ConversationEventMap,
  ConversationEventName,
  ConversationObserver,
} from '@skein/conversation';
import type { SkeinEmitter } from './emitter.js';

/**
 * Forwards a thread's conversation events to the engine's emitter with the thread id: one small
 * object per thread, asked before each payload is built, where two listeners cost an emitter,
 * wrappers and closures per thread (a fan-out builds thousands of threads).
 */
export class ThreadEventForwarder implements ConversationObserver {
  readonly #emitter: SkeinEmitter;
  readonly #threadId: string;

  constructor(emitter: SkeinEmitter, threadId: string) {
    this.#emitter = emitter;
    this.#threadId = threadId;
  }

  wants(event: ConversationEventName): boolean {
    return (
      (event === 'message:added' || event === 'batch:started') &&
      this.#emitter.listenerCount(event) > 0
    );
  }

  notify<K extends ConversationEventName>(event: K, payload: ConversationEventMap[K]): void {
    const threadId = this.#threadId;
    if (event === 'message:added') {
      const { message, position } = payload as ConversationEventMap['message:added'];
      this.#emitter.emit('message:added', { threadId, message, position });
    } else if (event === 'batch:started') {
      const { batch, withInitialTools } = payload as ConversationEventMap['batch:started'];
      this.#emitter.emit('batch:started', { threadId, batch, withInitialTools });
    }
  }
}
