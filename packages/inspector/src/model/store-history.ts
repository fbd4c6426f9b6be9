import type { CheckpointInfo } from '@skein/spec';
import type { HistoryItem } from './types.js';

/**
 * A thread's history as the store's list alone tells it, oldest first: what the inspector serves
 * without an engine. `engine.history` adds what changed at each checkpoint, which needs
 * @skein/core's reading of the states; the list has the rest.
 */
export function storeHistory(infos: readonly CheckpointInfo[]): HistoryItem[] {
  return [...infos]
    .sort((a, b) => a.sequence - b.sequence)
    .map((info) => ({
      checkpointId: info.id,
      sequence: info.sequence,
      step: info.step,
      ...(info.currentNodeId === undefined ? {} : { nodeId: info.currentNodeId }),
      status: info.status,
      createdAt: info.createdAt,
    }));
}
