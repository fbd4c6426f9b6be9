/** The longest delay `setTimeout` takes: beyond it Node fires at once (and warns). */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * The in-process timers of one engine's known wakes: one timer, for the earliest, however many
 * threads wait. A wake further than 2^31 - 1 ms away is reached by a chain of shorter timers.
 * The timers are a shortcut, not the record: the store holds every wake, and `recover()` /
 * `wakeDue()` find them again after a restart. Timers are unref'd: a waiting thread does not
 * keep the process alive.
 */
export class WakeTimers {
  readonly #due = new Map<string, number>();
  readonly #now: () => number;
  readonly #onDue: (threadIds: string[]) => void;
  #timer: ReturnType<typeof setTimeout> | undefined;
  /** When the armed timer fires (its target, maybe a link of a chain). */
  #armedFor = Number.POSITIVE_INFINITY;

  constructor(now: () => number, onDue: (threadIds: string[]) => void) {
    this.#now = now;
    this.#onDue = onDue;
  }

  get size(): number {
    return this.#due.size;
  }

  /** Wakes `threadId` at `at` (epoch ms), replacing an earlier wake of it. */
  set(threadId: string, at: number): void {
    this.#due.set(threadId, at);
    if (at < this.#armedFor) this.#arm(at);
  }

  delete(threadId: string): void {
    this.#due.delete(threadId);
    if (this.#due.size === 0) this.clear();
  }

  /** Stops every timer; the wakes stay in the store. */
  clear(): void {
    this.#due.clear();
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#armedFor = Number.POSITIVE_INFINITY;
  }

  #arm(at: number): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#armedFor = at;
    const delay = Math.min(Math.max(at - this.#now(), 0), MAX_TIMER_MS);
    this.#timer = setTimeout(() => this.#fire(), delay);
    this.#timer.unref?.();
  }

  #fire(): void {
    this.#timer = undefined;
    this.#armedFor = Number.POSITIVE_INFINITY;
    const now = this.#now();
    const due: string[] = [];
    let next = Number.POSITIVE_INFINITY;
    for (const [threadId, at] of this.#due) {
      if (at <= now) due.push(threadId);
      else if (at < next) next = at;
    }
    for (const threadId of due) this.#due.delete(threadId);
    if (next !== Number.POSITIVE_INFINITY) this.#arm(next);
    if (due.length > 0) this.#onDue(due);
  }
}
