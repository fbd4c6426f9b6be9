import { ThreadConflictError } from '@skein/spec';
import type { CheckpointStore } from '../checkpoint/checkpoint-store.js';

export interface LeaseOptions {
  readonly store: CheckpointStore;
  /** Who this process is in the store's leases. */
  readonly owner: string;
  /** How long a lease lasts without renewal; renewed every third of it while the thread runs. */
  readonly leaseMs: number;
  /** Epoch ms; every lease time comes from here, so tests can move it. */
  readonly now: () => number;
}

/**
 * The leases of the top-level threads one executor runs. A lease tells other processes that a
 * live one runs the thread (so `recover` leaves it alone); the store refuses this process's
 * checkpoints once another owner has taken the lease over. Counted per thread: two calls of one
 * process on one thread (a resume that loses the race to another) share the lease, and only the
 * last to finish gives it up.
 */
export class LeaseKeeper {
  readonly owner: string;
  readonly #options: LeaseOptions;
  readonly #held = new Map<string, number>();
  #timer: ReturnType<typeof setInterval> | undefined;

  constructor(options: LeaseOptions) {
    this.#options = options;
    this.owner = options.owner;
  }

  /** Whether this process runs the thread now. */
  holds(threadId: string): boolean {
    return this.#held.has(threadId);
  }

  /** Takes the thread's lease, or throws `THREAD_LEASED` when a live owner holds it. */
  async take(threadId: string): Promise<void> {
    const { store, owner } = this.#options;
    const holder = this.#held.get(threadId);
    if (holder === undefined && !(await store.acquireLease(threadId, this.#request()))) {
      throw new ThreadConflictError(
        'THREAD_LEASED',
        threadId,
        `Thread ${threadId} is run by another process (its lease is not ${owner}'s and has not expired); try again once it has, or let that process finish`,
        { details: { owner } },
      );
    }
    this.#held.set(threadId, (this.#held.get(threadId) ?? 0) + 1);
    if (this.#timer === undefined) {
      this.#timer = setInterval(
        () => this.#renewAll(),
        Math.max(1, Math.floor(this.#options.leaseMs / 3)),
      );
      // A lease never keeps the process alive by itself.
      this.#timer.unref?.();
    }
  }

  /** Gives the lease up when the last run of the thread in this process ends. */
  async give(threadId: string): Promise<void> {
    const count = (this.#held.get(threadId) ?? 1) - 1;
    if (count > 0) {
      this.#held.set(threadId, count);
      return;
    }
    this.#held.delete(threadId);
    if (this.#held.size === 0 && this.#timer !== undefined) {
      clearInterval(this.#timer);
      this.#timer = undefined;
    }
    try {
      await this.#options.store.releaseLease(threadId, this.#options.owner);
    } catch {
      // The store is unreachable: the lease expires by itself.
    }
  }

  #request() {
    const now = this.#options.now();
    return { owner: this.#options.owner, expiresAt: now + this.#options.leaseMs, now };
  }

  #renewAll(): void {
    // A failed renewal (the database is down) is tried again at the next tick; if the lease
    // expires meanwhile and another process takes it, the store fences this one's saves.
    for (const threadId of this.#held.keys())
      this.#options.store.acquireLease(threadId, this.#request()).catch(() => {});
  }
}
