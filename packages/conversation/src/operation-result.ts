import type { OperationResult } from './context-operations.js';
import { diffLists } from './list-operations.js';

/**
 * What an operation changed. The diff is O(visible), so it is computed only if someone reads it
 * (a CLEAR of a million visible messages should not pay for a list nobody looks at). Live arrays
 * are only ever pushed onto, so (array, length) is a stable picture of each side until then.
 */
export function operationResult(
  type: OperationResult['type'],
  batch: number,
  batchStarted: boolean,
  before: readonly number[],
  after: readonly number[],
  stored: readonly number[],
): OperationResult {
  const beforeLength = before.length;
  const afterLength = after.length;
  let diff: { removed: number[]; added: number[] } | undefined;
  const lazyDiff = () => {
    diff ??= diffLists(before.slice(0, beforeLength), after.slice(0, afterLength));
    return diff;
  };
  return {
    type,
    batch,
    batchStarted,
    visibleBefore: beforeLength,
    visibleAfter: afterLength,
    get removed() {
      return lazyDiff().removed;
    },
    get added() {
      return lazyDiff().added;
    },
    stored,
  };
}
