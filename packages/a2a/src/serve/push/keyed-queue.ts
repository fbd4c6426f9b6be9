/**
 * Runs jobs one after another per key, keys side by side: what keeps one config's pushes in the
 * order of the task's changes while a slow receiver (retrying for a minute) holds up no other.
 * A key is forgotten once its last job has run. Jobs report their own failures; one that throws
 * anyway does not stop those after it.
 */
export class KeyedQueue {
  readonly #tails = new Map<string, Promise<void>>();

  add(key: string, job: () => Promise<void>): void {
    const tail = (this.#tails.get(key) ?? Promise.resolve()).then(job).catch(() => undefined);
    this.#tails.set(key, tail);
    void tail.then(() => {
      if (this.#tails.get(key) === tail) this.#tails.delete(key);
    });
  }
}
