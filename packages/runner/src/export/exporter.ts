import type { ThreadContext } from '@skein/core';
import type { CheckpointStore } from '@skein/spec';
import type { DatasetItem } from '../input/dataset-input.js';
import type { ItemResult } from '../output/item-result.js';

/** An item as exporters see it: what was run, how it ended, and its thread when it had one. */
export interface FinishedItem {
  readonly item: DatasetItem;
  readonly result: ItemResult;
  readonly thread: ThreadContext;
  /** The store the thread is checkpointed in, where its attachments (`ref` parts) are read. */
  readonly store: CheckpointStore | undefined;
}

/** Writes lines for finished items into files of the run folder (exactly once, by the writer). */
export interface Exporter {
  /** Files (relative to the run folder) this exporter appends lines to. */
  readonly files: readonly string[];
  /**
   * The lines for one item, by file; none for items it skips. May be async (an export that reads
   * attachments from the store); what it throws or rejects with fails the item (`EXPORT_FAILED`).
   */
  linesFor(
    finished: FinishedItem,
  ): ReadonlyMap<string, readonly string[]> | Promise<ReadonlyMap<string, readonly string[]>>;
  /** After the last item: whole-run files (an index, a mapping). */
  finish?(folder: string): Promise<void>;
}
