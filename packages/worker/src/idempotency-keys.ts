import { InvalidArgumentError } from '@skein/spec';

/** What a tool's context says about the call (the `ToolExecutionContext` fields used). */
export interface ToolCallScope {
  readonly threadId: string;
  readonly nodeId: string;
  readonly toolCallId: string;
  /** Set by the engine: thread, node, step, round and the call's position in the model's message. */
  readonly idempotencyKey?: string;
}

/**
 * The engine's key for a tool call, the same when a worker runs the node again after a crash (a
 * re-run starts from the same checkpoint, at the same step, and a model's call ids are not used).
 */
export function idempotencyKeyOf(context: ToolCallScope): string {
  if (typeof context.idempotencyKey !== 'string' || context.idempotencyKey === '')
    throw new InvalidArgumentError(
      'context',
      `tool call ${context.toolCallId} of node "${context.nodeId}" has no idempotencyKey: pass the context the engine gave the tool`,
    );
  return context.idempotencyKey;
}
