/**
 * Values pushed by callbacks (engine events, a run's end), read by one `for await`: what turns a
 * thread's events into a stream's generator. `end` lets the reader finish after what was pushed;
 * `fail` makes it throw there.
 */
export class EventQueue<T> implements AsyncIterable<T> {
  readonly #items: T[] = [];
  #ended = false;
  #error: { readonly error: unknown } | undefined;
  #wake: (() => void) | undefined;

  push(item: T): void {
    if (this.#ended) return;
    this.#items.push(item);
    this.#notify();
  }

  end(): void {
    this.#ended = true;
    this.#notify();
  }

  fail(error: unknown): void {
    if (this.#ended) return;
    this.#error = { error };
    this.end();
  }

  #notify(): void {
    const wake = this.#wake;
    this.#wake = undefined;
    wake?.();
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<T, void, undefined> {
    for (;;) {
      const item = this.#items.shift();
      if (item !== undefined) {
        yield item;
        continue;
      }
      if (this.#ended) {
        if (this.#error) throw this.#error.error;
        return;
      }
      await new Promise<void>((resolve) => {
        this.#wake = resolve;
      });
    }
  }
}
