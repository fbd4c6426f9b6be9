import type { SkeinError } from '@skein/spec';
import type { CheckpointStore } from '../checkpoint/checkpoint-store.js';
import type { SkeinEmitter } from '../events/emitter.js';
import { pauseKindOf } from '../pauses/pause-kinds.js';
import type { ThreadContext } from '../thread/thread-context.js';
import type { PendingInteraction } from '../thread/thread-state.js';
import { addToolFailures } from '../thread/tool-failure-counts.js';
import type { IsoClock } from '../util/iso-clock.js';
import type { NodeDefinition } from '../workflow/types.js';
import { saveCheckpoint } from './checkpointing.js';
import { withholdTripped } from './guardrail-trip.js';
import type { NodeFailure } from './node-failure.js';
import { resultOf, serializeError, type ThreadResult } from './thread-result.js';

/** What ending a run needs: the thread, where it is stored and told about, its steps this run. */
export interface Ending {
  readonly thread: ThreadContext;
  readonly emitter: SkeinEmitter;
  readonly store: CheckpointStore | undefined;
  readonly steps: number;
  readonly clock: IsoClock;
}

/** The thread waits for `pending`: PAUSED (WAITING for time or an event), saved, `thread:paused`. */
export async function pauseThread(
  end: Ending,
  nodeId: string,
  pending: PendingInteraction,
  toolFailures?: Readonly<Record<string, number>>,
  guarded?: Readonly<Record<string, number>>,
): Promise<ThreadResult> {
  const { thread, emitter, store } = end;
  thread.dispatch({
    type: 'paused',
    pending,
    ...(guarded ? { guarded } : {}),
    ...(toolFailures
      ? { toolFailures: addToolFailures(thread.state.toolFailures, toolFailures) }
      : {}),
  });
  if (store) await saveCheckpoint(store, thread, emitter, undefined, end.clock);
  emitter.emit('thread:paused', {
    threadId: thread.threadId,
    nodeId,
    ...pauseKindOf(pending).details(pending),
  });
  return resultOf(thread, thread.status === 'WAITING' ? 'WAITING' : 'PAUSED', end.steps);
}

/** The run ends COMPLETED, FAILED or CANCELLED: the state, a last checkpoint, the event. */
export async function finishThread(
  end: Ending,
  status: 'COMPLETED' | 'FAILED' | 'CANCELLED',
  error?: SkeinError,
  nodeId?: string,
  /** A branch that reached its JOIN ends with its output set in the same change. */
  branch?: { readonly output: unknown },
): Promise<ThreadResult> {
  const { thread, emitter, store } = end;
  const serialized = error ? serializeError(error, nodeId) : undefined;
  const guarded = serialized?.guardrail ? withholdTripped(thread, serialized.guardrail) : undefined;
  thread.dispatch(
    branch
      ? { type: 'finished', status, error: serialized, output: branch.output }
      : { type: 'finished', status, error: serialized, ...(guarded ? { guarded } : {}) },
  );
  if (store) await saveCheckpoint(store, thread, emitter, undefined, end.clock);
  const event =
    status === 'COMPLETED'
      ? 'thread:completed'
      : status === 'FAILED'
        ? 'thread:failed'
        : 'thread:cancelled';
  emitter.emit(event, {
    threadId: thread.threadId,
    status,
    steps: thread.state.step,
    ...(status === 'COMPLETED' ? { output: thread.state.output } : {}),
    ...(error
      ? {
          error: {
            code: error.code,
            message: error.message,
            ...(serialized?.guardrail ? { guardrail: serialized.guardrail } : {}),
          },
        }
      : {}),
  });
  return resultOf(thread, status, end.steps, error);
}

/** `node:failed` for a node that failed, with where the thread can go on from. */
export function emitNodeFailed(
  emitter: SkeinEmitter,
  thread: ThreadContext,
  node: NodeDefinition,
  step: number,
  failure: NodeFailure,
): void {
  emitter.emit('node:failed', {
    threadId: thread.threadId,
    nodeId: node.id,
    nodeType: node.type,
    step,
    ...(thread.lastCheckpointId === undefined ? {} : { lastCheckpointId: thread.lastCheckpointId }),
    error: {
      code: failure.code,
      message: failure.message,
      threadId: failure.threadId,
      nodeId: failure.nodeId,
      ...(failure.lastCheckpointId === undefined
        ? {}
        : { lastCheckpointId: failure.lastCheckpointId }),
    },
  });
}
