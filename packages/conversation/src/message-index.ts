import type { LLMMessage, Role } from '@skein/spec';
import type { Batch } from './conversation-state.js';

/** One batch as `listBatches()` reports it. */
export interface BatchInfo {
  readonly batch: number;
  /** Stored-message count when the batch started: its boundary in storage. */
  readonly startedAt: number;
  readonly visibleCount: number;
  readonly withInitialTools: boolean;
  readonly current: boolean;
}

/** The batches of the current stack as `listBatches()` reports them. */
export function batchInfos(batches: readonly Batch[]): BatchInfo[] {
  const last = batches.length - 1;
  return batches.map((b, batch) => ({
    batch,
    startedAt: b.startedAt,
    visibleCount: b.live.length,
    withInitialTools: b.withInitialTools,
    current: batch === last,
  }));
}

/**
 * A read view of the conversation index: which stored messages the model sees, per role, and the
 * batch boundaries. `reset()` is the one write, with the original design's meaning: the current
 * batch's view becomes empty (storage is untouched), except that a batch started with initial
 * tools keeps its one description. It is logged like any other change, so snapshots keep it.
 */
export class MessageIndex {
  readonly #live: () => readonly number[];
  readonly #lookup: (position: number) => LLMMessage;
  readonly #boundaries: () => readonly number[];
  readonly #reset: () => void;

  constructor(parts: {
    live: () => readonly number[];
    lookup: (position: number) => LLMMessage;
    boundaries: () => readonly number[];
    reset: () => void;
  }) {
    this.#live = parts.live;
    this.#lookup = parts.lookup;
    this.#boundaries = parts.boundaries;
    this.#reset = parts.reset;
  }

  /** Storage positions of the visible messages, in order (the original design's "original indices"). */
  get originalIndices(): readonly number[] {
    return Object.freeze(this.#live().slice());
  }

  /** Storage position of the message visible at `visibleIndex`. */
  toOriginalIndex(visibleIndex: number): number | undefined {
    return this.#live()[visibleIndex];
  }

  /** Storage positions of the visible messages with `role`. */
  positionsByRole(role: Role): number[] {
    return this.#live().filter((p) => this.#lookup(p).role === role);
  }

  /** Where each batch of the current stack started, as stored-message counts. */
  get batchBoundaries(): readonly number[] {
    return this.#boundaries();
  }

  get size(): number {
    return this.#live().length;
  }

  reset(): void {
    this.#reset();
  }
}
