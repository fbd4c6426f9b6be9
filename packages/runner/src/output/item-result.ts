import type { TokenUsage } from '@skein/spec';

/**
 * How an item ended. `INVALID`: it could not be run (a malformed line, no id, a repeated id).
 * `PAUSED`: the workflow waits for user input, which a dataset run cannot give.
 */
export type ItemStatus = 'COMPLETED' | 'FAILED' | 'PAUSED' | 'INVALID';

export interface ItemError {
  readonly code: string;
  readonly message: string;
  /** The node that failed, when a node did. */
  readonly nodeId?: string;
}

/** One line of `results.jsonl`. */
export interface ItemResult {
  readonly itemId: string;
  /** Absent for an INVALID entry, which never had a thread. */
  readonly threadId?: string;
  readonly status: ItemStatus;
  readonly output?: unknown;
  readonly usage: TokenUsage;
  /** Wall time of this item in the process that finished it. */
  readonly durationMs: number;
  readonly error?: ItemError;
  /** Line of the JSONL input the item came from. */
  readonly line?: number;
  /**
   * Bookkeeping for exactly-once exports: the size of each export file once this result's
   * export lines were written. A resumed run cuts export files back to these sizes.
   */
  readonly exportBytes?: Readonly<Record<string, number>>;
}

export const ZERO_USAGE: TokenUsage = Object.freeze({
  promptTokens: 0,
  completionTokens: 0,
  totalTokens: 0,
});

/** The thread of an item: the run id and the item id, so a rerun finds it. */
export function threadIdOf(runId: string, itemId: string): string {
  return `${runId}/${itemId}`;
}
