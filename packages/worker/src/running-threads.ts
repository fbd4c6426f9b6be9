/** One job's hold on a thread: how to stop it, and why it was stopped. */
export interface RunningThread {
  readonly controller: AbortController;
  /** Set when the worker stops: the abort hands the thread back instead of cancelling it. */
  handback: boolean;
  /** Set once the job runs the thread (not just waits for its lock). */
  running: boolean;
}

/**
 * The jobs of this process by thread. Usually one per thread; a second one (a resume queued while
 * the first still finishes) waits for the thread lock and is registered meanwhile, so that a
 * cancellation reaches whichever of them runs.
 */
export class RunningThreads {
  readonly #jobs = new Map<string, Set<RunningThread>>();

  add(threadId: string): RunningThread {
    const entry: RunningThread = {
      controller: new AbortController(),
      handback: false,
      running: false,
    };
    let set = this.#jobs.get(threadId);
    if (!set) {
      set = new Set();
      this.#jobs.set(threadId, set);
    }
    set.add(entry);
    return entry;
  }

  remove(threadId: string, entry: RunningThread): void {
    const set = this.#jobs.get(threadId);
    if (set?.delete(entry) && set.size === 0) this.#jobs.delete(threadId);
  }

  /**
   * Marks the job as running its thread; false when another job of this process runs it already.
   * The thread lock keeps that from happening unless the lock was lost (the database restarted)
   * and the job was taken over by this same process.
   */
  begin(threadId: string, entry: RunningThread): boolean {
    for (const other of this.#jobs.get(threadId) ?? []) if (other.running) return false;
    entry.running = true;
    return true;
  }

  cancel(threadId: string): void {
    for (const entry of this.#jobs.get(threadId) ?? []) entry.controller.abort();
  }

  handBackAll(): void {
    for (const set of this.#jobs.values())
      for (const entry of set) {
        entry.handback = true;
        entry.controller.abort();
      }
  }

  isHandedBack(threadId: string): boolean {
    for (const entry of this.#jobs.get(threadId) ?? []) if (entry.handback) return true;
    return false;
  }

  ids(): string[] {
    return [...this.#jobs.keys()];
  }
}
