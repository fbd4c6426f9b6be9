import type { TokenUsage } from '@skein/spec';
import type { RateLimiterStats } from '../limits/rate-limiter.js';
import type { ItemStatus } from '../output/item-result.js';
import type { ScorerSummary } from '../score/score-book.js';

/** Price of a model in currency units per million tokens. */
export interface ModelPrice {
  readonly inputPerMillion: number;
  readonly outputPerMillion: number;
}

export interface TopError {
  readonly code: string;
  readonly message: string;
  readonly count: number;
  /** One item that failed this way. */
  readonly itemId: string;
}

/** `summary.json` of a run folder: the whole run, earlier processes of the same run included. */
export interface RunSummary {
  readonly runId: string;
  readonly workflowId: string;
  /** Items with a result, by status. */
  readonly items: Readonly<Record<ItemStatus, number>> & { readonly total: number };
  /** Results found from earlier processes of this run (skipped this time). */
  readonly resumed: number;
  /** False when the run was stopped (signal) before every item was done. */
  readonly finished: boolean;
  readonly tokens: TokenUsage;
  /** Estimated from `prices` for `model`; absent without a price. */
  readonly cost?: { readonly model: string; readonly amount: number };
  /** Per item; p50 and p95 are within 1% of the exact value (a sketch keeps memory flat). */
  readonly durationMs: { readonly p50: number; readonly p95: number; readonly max: number };
  /** Wall time of this process's run. */
  readonly elapsedMs: number;
  readonly topErrors: readonly TopError[];
  readonly rateLimits?: RateLimiterStats;
  /** With scorers: per scorer, its scores in `scores.jsonl` and its calls that gave none here. */
  readonly scores?: Readonly<Record<string, ScorerSummary>>;
}
