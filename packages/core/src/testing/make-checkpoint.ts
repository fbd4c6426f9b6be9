import type { Checkpoint } from '../checkpoint/checkpoint-store.js';
import type { ThreadState } from '../thread/thread-state.js';

/**
 * A hand-made checkpoint continuing the one before it (`threadId:sequence`, parent
 * `threadId:sequence-1` unless `ids.parentId` is given): for store tests that save checkpoints
 * without running an engine. `messages` are the ones it adds after `from`; `state` overrides
 * fields of a minimal RUNNING state.
 */
export function makeCheckpoint(
  threadId: string,
  sequence: number,
  from: { messages: number; log: number },
  messages: unknown[] = [],
  state: Partial<Record<keyof ThreadState, unknown>> = {},
  ids: { id?: string; parentId?: string } = {},
): Checkpoint {
  const parentId = ids.parentId ?? (sequence > 1 ? `${threadId}:${sequence - 1}` : undefined);
  const createdAt = '2026-11-23T10:00:00.000Z';
  return {
    id: ids.id ?? `${threadId}:${sequence}`,
    threadId,
    sequence,
    ...(parentId === undefined ? {} : { parentId }),
    createdAt,
    state: {
      threadId,
      workflowId: 'w',
      workflowVersion: '1',
      status: 'RUNNING',
      step: sequence,
      currentNodeId: 'n',
      variables: {},
      nodeOutputs: {},
      dynamicTools: [],
      toolFailures: {},
      firedTriggers: [],
      createdAt,
      ...state,
    } as ThreadState,
    conversation: {
      version: 1,
      from,
      messages: messages as Checkpoint['conversation']['messages'],
      log: [],
    },
  };
}
