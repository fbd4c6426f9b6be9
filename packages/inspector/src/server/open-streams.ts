/**
 * The live streams a server has open, ended together when it closes. The shutdown signal gets
 * one listener in all, not one per stream: with more than ten streams, Node would otherwise warn
 * of a leak (MaxListenersExceededWarning) on a signal that is not leaking.
 */
export class OpenStreams {
  readonly #ends = new Set<() => void>();
  #closed = false;

  constructor(closing: AbortSignal) {
    if (closing.aborted) this.#closed = true;
    else closing.addEventListener('abort', () => this.#endAll(), { once: true });
  }

  /** Registers a stream's `end`; returns what the stream calls once it has ended. */
  add(end: () => void): () => void {
    if (this.#closed) {
      end();
      return () => undefined;
    }
    this.#ends.add(end);
    return () => {
      this.#ends.delete(end);
    };
  }

  #endAll(): void {
    this.#closed = true;
    for (const end of this.#ends) end();
    this.#ends.clear();
  }
}
