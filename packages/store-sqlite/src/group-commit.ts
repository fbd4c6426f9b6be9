/**
 * Writes a group in one transaction. Returns, per item in order, `undefined` when the item was
 * written or the error that refused it (its own writes undone, the others kept); throws when the
 * transaction as a whole failed (nothing of the group was written).
 */
export type WriteGroup<T> = (items: readonly T[]) => readonly unknown[];

interface Waiting<T> {
  readonly item: T;
  readonly resolve: () => void;
  readonly reject: (error: unknown) => void;
}

/**
 * Collects the saves asked for during one turn of the event loop and writes them with one
 * `COMMIT` when the turn is over (`setImmediate`): many threads waiting on models then share one
 * fsync instead of queueing behind one each. Each promise settles only after that commit, so a
 * resolved save is durable. Timer callbacks and I/O of one turn all run before `setImmediate`,
 * while a microtask would run after each of them and group nothing.
 */
export class GroupCommit<T> {
  readonly #write: WriteGroup<T>;
  #waiting: Waiting<T>[] = [];
  #scheduled = false;

  constructor(write: WriteGroup<T>) {
    this.#write = write;
  }

  /** Queues `item` for the next commit; resolves once it is committed, rejects if refused. */
  add(item: T): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.#waiting.push({ item, resolve, reject });
      if (this.#scheduled) return;
      this.#scheduled = true;
      setImmediate(() => this.flush());
    });
  }

  /** Writes what waits now, at once (before another operation, or before closing). */
  flush(): void {
    this.#scheduled = false;
    const group = this.#waiting;
    if (group.length === 0) return;
    this.#waiting = [];
    let outcomes: readonly unknown[];
    try {
      outcomes = this.#write(group.map((waiting) => waiting.item));
    } catch (error) {
      for (const waiting of group) waiting.reject(error);
      return;
    }
    group.forEach((waiting, i) => {
      const refusal = outcomes[i];
      if (refusal === undefined) waiting.resolve();
      else waiting.reject(refusal);
    });
  }
}
