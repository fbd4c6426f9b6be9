/** How one item of a round ended: durable, with what writing it returned, or refused. */
export type Outcome<R> = { readonly value: R } | { readonly refusal: unknown };

/**
 * Writes one round (at most one item per key) in as few transactions as it can. Resolves to each
 * item's outcome, in order; rejects when the round failed as a whole (every item of it fails with
 * that error).
 */
export type WriteRound<T, R> = (items: readonly T[]) => Promise<readonly Outcome<R>[]>;

interface Waiting<T, R> {
  readonly item: T;
  readonly resolve: (value: R) => void;
  readonly reject: (error: unknown) => void;
}

/**
 * Splits a group into rounds: the first item of each key, then the second of each key, and so on.
 * A key's items keep their order across rounds, and no round holds two of them, so the rows a
 * round locks belong to as many threads as it has items.
 */
function rounds<T>(group: readonly T[], keyOf: (item: T) => string): T[][] {
  const result: T[][] = [];
  const seen = new Map<string, number>();
  for (const item of group) {
    const key = keyOf(item);
    const n = seen.get(key) ?? 0;
    seen.set(key, n + 1);
    const round = result[n];
    if (round) round.push(item);
    else result[n] = [item];
  }
  return result;
}

/**
 * Group commit on an asynchronous database: one group is being written at a time, and what is
 * asked for meanwhile waits for it to end and then goes together (saves arriving while the
 * database is idle wait for the end of the event loop's turn, so threads woken together go
 * together). An item therefore waits for at most one commit of others before its own, and each
 * promise settles only once its own commit is over. Items of one key (a thread: its saves and
 * lease calls) are written in the order they were asked for.
 */
export class GroupCommit<T, R> {
  readonly #write: WriteRound<T, R>;
  readonly #keyOf: (item: T) => string;
  #waiting: Waiting<T, R>[] = [];
  #busy = false;
  #scheduled = false;
  #idle: (() => void)[] = [];

  constructor(write: WriteRound<T, R>, keyOf: (item: T) => string) {
    this.#write = write;
    this.#keyOf = keyOf;
  }

  /** Queues `item`; resolves with what writing it returned once committed, or rejects with why not. */
  add(item: T): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.#waiting.push({ item, resolve, reject });
      this.#schedule();
    });
  }

  /** Resolves once every item asked for so far has settled. */
  drain(): Promise<void> {
    if (!this.#busy && !this.#scheduled && this.#waiting.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.#idle.push(resolve));
  }

  #schedule(): void {
    if (this.#busy || this.#scheduled) return;
    this.#scheduled = true;
    setImmediate(() => void this.#commitWaiting());
  }

  async #commitWaiting(): Promise<void> {
    this.#scheduled = false;
    this.#busy = true;
    const group = this.#waiting;
    this.#waiting = [];
    try {
      for (const round of rounds(group, (waiting) => this.#keyOf(waiting.item)))
        await this.#commitRound(round);
    } finally {
      this.#busy = false;
      if (this.#waiting.length > 0) this.#schedule();
      else for (const resolve of this.#idle.splice(0)) resolve();
    }
  }

  async #commitRound(round: readonly Waiting<T, R>[]): Promise<void> {
    let outcomes: readonly Outcome<R>[];
    try {
      outcomes = await this.#write(round.map((waiting) => waiting.item));
    } catch (error) {
      for (const waiting of round) waiting.reject(error);
      return;
    }
    round.forEach((waiting, i) => {
      const outcome = outcomes[i]!;
      if ('value' in outcome) waiting.resolve(outcome.value);
      else waiting.reject(outcome.refusal);
    });
  }
}
