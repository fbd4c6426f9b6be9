import type { CheckpointStore } from '@skein/core';

/** The `n`th regeneration of a chat runs as thread `<chatId>~<n>` (a fork of the one before). */
function forkNumber(chatId: string, threadId: string): number | undefined {
  if (threadId === chatId) return 0;
  const prefix = `${chatId}~`;
  if (!threadId.startsWith(prefix)) return undefined;
  const n = Number(threadId.slice(prefix.length));
  return Number.isInteger(n) && n > 0 ? n : undefined;
}

/**
 * Which thread a chat's id stands for. A chat starts as the thread of its own id; regenerating an
 * answer forks the thread from the checkpoint before that answer under `<chatId>~<n>`, and the
 * chat goes on there. The newest fork is found in the store, so another process (or this one
 * after a restart) finds the same thread; the answer is cached per chat.
 */
export class ChatThreads {
  readonly #store: CheckpointStore;
  readonly #current = new Map<string, number>();

  constructor(store: CheckpointStore) {
    this.#store = store;
  }

  /** The thread the chat continues now (a thread that does not exist yet, for a new chat). */
  async current(chatId: string): Promise<string> {
    let n = this.#current.get(chatId);
    if (n === undefined) {
      n = 0;
      for (const info of await this.#store.listThreads()) {
        const k = forkNumber(chatId, info.threadId);
        if (k !== undefined && k > n) n = k;
      }
      this.#current.set(chatId, n);
    }
    return threadIdOf(chatId, n);
  }

  /** The id the next fork of the chat takes; the chat moves there once `commit` is called. */
  async next(chatId: string): Promise<{ threadId: string; commit(): void }> {
    await this.current(chatId);
    const n = this.#current.get(chatId)! + 1;
    return { threadId: threadIdOf(chatId, n), commit: () => this.#current.set(chatId, n) };
  }
}

function threadIdOf(chatId: string, n: number): string {
  return n === 0 ? chatId : `${chatId}~${n}`;
}
