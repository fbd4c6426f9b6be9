/**
 * Request and token budgets a provider imposes per account (requests per minute, tokens per
 * minute), shared by every model call that draws on them: one run, several runs in a process, or
 * a fleet of processes on several machines. A budget is a contract so that the code holding a
 * model to it (a runner's `limitModel`) never needs to know where the budget lives (in memory, in
 * PostgreSQL, …).
 */
export interface RateBudget {
  /**
   * Waits until one request of about `tokens` tokens fits both the request and the token budget,
   * then takes it. Called before every request, because a provider counts a request when it
   * arrives, not when it answers; `tokens` is an estimate since usage is only known afterwards.
   * Rejects with the signal's reason when `signal` aborts first (nothing is then taken).
   */
  acquire(tokens: number, signal?: AbortSignal): Promise<void>;
  /**
   * The request's real token count is known: charges (or gives back) the difference with its
   * estimate, so estimates that are too low or too high do not drift the token budget over time.
   * A refused request used no tokens: settle it with `actualTokens` 0.
   */
  settle(estimatedTokens: number, actualTokens: number): void | Promise<void>;
  /**
   * The provider answered 429 with a retry-after: nobody drawing on this budget sends before `ms`
   * from now. The limit is the account's, so every caller, not only the refused one, must wait,
   * or the others keep hitting it and extend the penalty.
   */
  pauseFor(ms: number): void | Promise<void>;
}
