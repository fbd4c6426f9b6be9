/**
 * A budget refilled continuously at `perMinute`, holding at most `capacity`. Taking may drive the
 * level below zero (a request larger than the burst, or usage above its estimate): later takers
 * then wait until the debt is paid back, so the long-run rate never exceeds the budget.
 */
export class TokenBucket {
  readonly perMinute: number;
  readonly capacity: number;
  #level: number;
  #updated: number;
  readonly #now: () => number;

  constructor(
    perMinute: number,
    capacity: number,
    now: () => number = performance.now.bind(performance),
  ) {
    this.perMinute = perMinute;
    this.capacity = capacity;
    this.#now = now;
    this.#level = capacity;
    this.#updated = now();
  }

  get level(): number {
    this.#refill();
    return this.#level;
  }

  /** Milliseconds until `amount` (at most the capacity) is available; 0 when it is now. */
  waitFor(amount: number): number {
    this.#refill();
    const needed = Math.min(amount, this.capacity) - this.#level;
    // `!(> 0)`: a NaN amount must not become a NaN wait, which no loop would ever see end.
    return !(needed > 0) ? 0 : Math.ceil((needed * 60_000) / this.perMinute);
  }

  /** Takes `amount`; a count that is not a finite number (a bad usage report) is ignored. */
  take(amount: number): void {
    this.#refill();
    if (Number.isFinite(amount)) this.#level -= amount;
  }

  /**
   * Gives back (`amount` > 0) or charges more (`amount` < 0) after the real cost is known; a NaN
   * or infinite amount is ignored, since it would leave the level NaN and every wait with it.
   */
  adjust(amount: number): void {
    this.#refill();
    if (Number.isFinite(amount)) this.#level = Math.min(this.capacity, this.#level + amount);
  }

  #refill(): void {
    const now = this.#now();
    const elapsed = now - this.#updated;
    this.#updated = now;
    if (elapsed > 0)
      this.#level = Math.min(this.capacity, this.#level + (elapsed * this.perMinute) / 60_000);
  }
}
