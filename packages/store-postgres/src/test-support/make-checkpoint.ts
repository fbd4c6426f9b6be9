import type { Checkpoint, ThreadState } from '@skein/core';

/**
 * A hand-made checkpoint continuing the one before it (`threadId:sequence`, parent
 * `threadId:sequence-1` unless `parentId` is given), for tests that save without an engine.
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
  return {
    id: ids.id ?? `${threadId}:${sequence}`,
    threadId,
    sequence,
    ...(parentId === undefined ? {} : { parentId }),
    createdAt: '2026-11-23T10:00:00.000Z',
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
      createdAt: '2026-11-23T10:00:00.000Z',
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
