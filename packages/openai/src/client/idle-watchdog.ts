/**
 * Calls `onIdle` once when `touch()` has not been called for `timeoutMs`. One timer, re-armed
 * only when it fires, so `touch()` (called per body read) costs a clock read.
 */
export class IdleWatchdog {
  readonly #timeoutMs: number;
  readonly #onIdle: () => void;
  #last = Date.now();
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(timeoutMs: number, onIdle: () => void) {
    this.#timeoutMs = timeoutMs;
    this.#onIdle = onIdle;
    this.#timer = this.#arm(timeoutMs);
  }

  touch(): void {
    this.#last = Date.now();
  }

  stop(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  #arm(ms: number): ReturnType<typeof setTimeout> {
    const timer = setTimeout(() => this.#check(), ms);
    timer.unref?.();
    return timer;
  }

  #check(): void {
    if (this.#timer === undefined) return;
    const idle = Date.now() - this.#last;
    if (idle >= this.#timeoutMs) {
      this.#timer = undefined;
      this.#onIdle();
    } else {
      this.#timer = this.#arm(this.#timeoutMs - idle);
    }
  }
}
