import type { ThreadContext } from '@skein/core';
import type { LLMMessage } from '@skein/spec';
import type { ItemResult } from '../output/item-result.js';

/** A tool call the thread made, its arguments parsed (the raw text when they are not JSON). */
export interface ScoredToolCall {
  readonly id: string;
  readonly name: string;
  readonly arguments: unknown;
}

/** What a scorer scores: one finished item of a run. */
export interface ScorerInput {
  /** The dataset entry, as the input gave it. */
  readonly item: unknown;
  readonly itemId: string;
  /** The item's line of `results.jsonl`: `status`, `output`, `usage`, `error`… */
  readonly result: ItemResult;
  /** `<runId>/<itemId>`. */
  readonly threadId: string;
  /**
   * The finished thread as the engine rebuilt it: the one the run just ran, or the stored one
   * (`engine.getThread`) for an item finished by an earlier process. Undefined when the store
   * does not have it (a run without a store).
   */
  readonly thread: ThreadContext | undefined;
  /**
   * Every message the thread stored, every batch, in order. Throws `ScoreError`
   * (`SCORE_INPUT_MISSING`) when the thread is not there: the scorer then gives no score.
   */
  readonly messages: readonly LLMMessage[];
  /** The tool calls of the thread's assistant messages, in order (throws as `messages`). */
  readonly toolCalls: readonly ScoredToolCall[];
  /** Aborted when the scorer's time limit runs out or the run is stopped. */
  readonly signal: AbortSignal;
}

/** One scorer's score of one item. */
export interface ScoreValue {
  /** From 0 (worst) to 1 (best). */
  readonly score: number;
  readonly reason?: string;
  /** Anything JSON can carry: what the score was made from (a prompt, verdicts, a diff). */
  readonly details?: unknown;
}

/**
 * Scores finished items. `name` is the `scorer` of its lines in `scores.jsonl`: unique in a run,
 * and the same from run to run so `skein compare` can pair them. What `score` throws (or a
 * promise that does not settle within the time limit) gives no score for that item: never a
 * failed item or run.
 */
export interface Scorer {
  readonly name: string;
  score(input: ScorerInput): ScoreValue | Promise<ScoreValue>;
}
