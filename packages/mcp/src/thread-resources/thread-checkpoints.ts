import type { SkeinEngine, ThreadStatus } from '@skein/core';

/** One entry of what `skein://threads/<id>/checkpoints` reads as (JSON), oldest first. */
export interface CheckpointEntry {
  readonly id: string;
  readonly sequence: number;
  readonly status: ThreadStatus;
  /** Nodes completed up to this checkpoint. */
  readonly step: number;
  readonly createdAt: string;
  /** The node that runs next from here (none once the thread ended). */
  readonly nodeId?: string;
}

/**
 * The stored checkpoints of `threadId` (`engine.history`, through `caller`'s view when there is
 * one): CHECKPOINT_NOT_FOUND for a thread that is not the caller's.
 */
export async function threadCheckpoints(
  engine: SkeinEngine,
  threadId: string,
  caller: string | undefined,
): Promise<CheckpointEntry[]> {
  const view = caller === undefined ? engine : engine.forPrincipal(caller);
  // The variables each one changed are not shown: not reading them spares a read per checkpoint.
  const history = await view.history(threadId, { variables: false });
  return history.map((entry) => ({
    id: entry.checkpointId,
    sequence: entry.sequence,
    status: entry.status,
    step: entry.step,
    createdAt: entry.createdAt,
    ...(entry.nodeId === undefined ? {} : { nodeId: entry.nodeId }),
  }));
}
