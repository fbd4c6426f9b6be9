import type { CheckpointInfo } from '@skein/spec';
import type { TimelineEntry } from './types.js';

const STATUS: Record<CheckpointInfo['status'], TimelineEntry['status']> = {
  PENDING: 'running',
  RUNNING: 'completed',
  COMPLETED: 'completed',
  PAUSED: 'paused',
  WAITING: 'paused',
  FAILED: 'failed',
  CANCELLED: 'cancelled',
};

/**
 * The node runs a thread's checkpoints record. A checkpoint is saved after each step and names
 * the node that runs next, so the node that produced checkpoint n is the one checkpoint n - 1
 * named (`startNodeId` for the first). A checkpoint that does not advance the step records how
 * the node it names ended (paused, failed) rather than a new run. Durations are the time between
 * checkpoints, so they include the engine's own bookkeeping.
 */
export function nodeTimeline(
  checkpoints: readonly CheckpointInfo[],
  startNodeId = 'start',
): TimelineEntry[] {
  const entries: TimelineEntry[] = [];
  const attempts = new Map<string, number>();
  let previous: CheckpointInfo | undefined;
  for (const checkpoint of checkpoints) {
    const advanced = previous === undefined || checkpoint.step > previous.step;
    const nodeId = advanced
      ? (previous?.currentNodeId ?? startNodeId)
      : (checkpoint.currentNodeId ?? previous?.currentNodeId ?? startNodeId);
    // A node that failed (or was cancelled) and runs again at the same step is a retry.
    const key = advanced ? `${checkpoint.step}:${nodeId}` : `${checkpoint.step + 1}:${nodeId}`;
    const failed = checkpoint.status === 'FAILED' || checkpoint.status === 'CANCELLED';
    const attempt = (attempts.get(key) ?? 0) + 1;
    if (advanced || failed) attempts.set(key, attempt);
    const duration =
      previous === undefined
        ? undefined
        : Date.parse(checkpoint.createdAt) - Date.parse(previous.createdAt);
    entries.push({
      sequence: checkpoint.sequence,
      step: checkpoint.step,
      nodeId,
      status:
        advanced && (checkpoint.status === 'PAUSED' || checkpoint.status === 'WAITING')
          ? 'completed'
          : STATUS[checkpoint.status],
      at: checkpoint.createdAt,
      attempt,
      ...(duration === undefined || Number.isNaN(duration) ? {} : { durationMs: duration }),
    });
    previous = checkpoint;
  }
  return entries;
}
