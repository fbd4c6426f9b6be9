import type { SkeinEngine } from '@skein/core';
import { resourceNotFound } from '../publish/publication-errors.js';
import type { ThreadDirectory } from '../threads/thread-directory.js';
import { attachedPart } from './attached-part.js';
import { parseThreadUri } from './thread-uri.js';
import { visibleThread } from './visible-thread.js';

/**
 * One connection's `resources/subscribe`s to thread URIs. A thread's URI and its checkpoints' are
 * told `updated` each time the thread stores a checkpoint (its branches' own checkpoints change
 * neither); an attachment never changes, so its subscription is never told anything. Only what
 * the caller may read can be subscribed to. Subscribing twice to one URI is one
 * subscription; unsubscribing from one not subscribed to is no error.
 */
export class ThreadWatches {
  readonly #engine: SkeinEngine;
  readonly #directory: ThreadDirectory;
  readonly #updated: (uri: string) => void;
  readonly #watching = new Map<string, () => void>();
  // Counts the closes: a subscribe that began before one must not outlive it.
  #closes = 0;

  constructor(engine: SkeinEngine, directory: ThreadDirectory, updated: (uri: string) => void) {
    this.#engine = engine;
    this.#directory = directory;
    this.#updated = updated;
  }

  async subscribe(uri: string, caller: string | undefined): Promise<void> {
    const named = parseThreadUri(uri);
    if (named === undefined) throw resourceNotFound(uri);
    const closes = this.#closes;
    const thread = await visibleThread(this.#directory, named.threadId, caller, uri);
    if (named.kind === 'attachment' && attachedPart(thread, named.digest) === undefined)
      throw resourceNotFound(uri);
    // The connection may have closed, or the same URI been subscribed to, while the thread loaded.
    if (closes !== this.#closes || this.#watching.has(uri)) return;
    const { threadId } = named;
    this.#watching.set(
      uri,
      named.kind === 'attachment'
        ? () => undefined
        : this.#engine.subscribe(threadId, (event) => {
            if (event.type === 'checkpoint:saved' && event.threadId === threadId)
              this.#updated(uri);
          }),
    );
  }

  unsubscribe(uri: string): void {
    const stop = this.#watching.get(uri);
    this.#watching.delete(uri);
    stop?.();
  }

  /** Stops every subscription, and those still being made (the connection closed). */
  close(): void {
    this.#closes += 1;
    for (const uri of [...this.#watching.keys()]) this.unsubscribe(uri);
  }
}
