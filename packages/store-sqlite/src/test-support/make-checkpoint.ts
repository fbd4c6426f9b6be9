import type { Checkpoint, ThreadState } from '@skein/core';

/**
 * A hand-made checkpoint continuing the one before it (`threadId:sequence`, parent
 * `threadId:sequence-1`), for tests that save checkpoints without running an engine.
 */
export function makeCheckpoint(
  threadId: string,
  sequence: number,
  from: { messages: number; log: number },
  messages: unknown[] = [],
  state: Partial<Record<keyof ThreadState, unknown>> = {},
): Checkpoint {
  return {
    id: `${threadId}:${sequence}`,
    threadId,
    sequence,
    ...(sequence > 1 ? { parentId: `${threadId}:${sequence - 1}` } : {}),
    createdAt: '2026-11-22T10:00:00.000Z',
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
      createdAt: '2026-11-22T10:00:00.000Z',
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
