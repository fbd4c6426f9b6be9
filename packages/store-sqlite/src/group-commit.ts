/** How one item of a group ended: written, with what writing it returned, or refused. */
export type Outcome<R> = { readonly value: R } | { readonly refusal: unknown };

/**
 * Writes a group in one transaction. Returns, per item in order, its outcome: a refused item's
 * own writes are undone and the others kept. Throws when the transaction as a whole failed
 * (nothing of the group was written).
 */
export type WriteGroup<T, R> = (items: readonly T[]) => readonly Outcome<R>[];

interface Waiting<T, R> {
  readonly item: T;
  readonly resolve: (value: R) => void;
  readonly reject: (error: unknown) => void;
}

/**
 * Collects the writes asked for during one turn of the event loop (saves, and the lease calls
 * between them) and writes them in call order with one `COMMIT` when the turn is over
 * (`setImmediate`): many threads waiting on models then share one fsync instead of queueing
 * behind one each. Each promise settles only after that commit, so what a resolved call wrote is
 * durable. Timer callbacks and I/O of one turn all run before `setImmediate`, while a microtask
 * would run after each of them and group nothing.
 */
export class GroupCommit<T, R> {
  readonly #write: WriteGroup<T, R>;
  #waiting: Waiting<T, R>[] = [];
  #scheduled = false;

  constructor(write: WriteGroup<T, R>) {
    this.#write = write;
  }

  /** Queues `item` for the next commit; resolves with what writing it returned once committed. */
  add(item: T): Promise<R> {
    return new Promise<R>((resolve, reject) => {
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
    let outcomes: readonly Outcome<R>[];
    try {
      outcomes = this.#write(group.map((waiting) => waiting.item));
    } catch (error) {
      for (const waiting of group) waiting.reject(error);
      return;
    }
    group.forEach((waiting, i) => {
      const outcome = outcomes[i]!;
      if ('value' in outcome) waiting.resolve(outcome.value);
      else waiting.reject(outcome.refusal);
    });
  }
}
