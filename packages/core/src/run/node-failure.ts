import { SkeinError } from '@skein/spec';
import { NodeError } from '../errors/node-error.js';

/** Where a node failed: what a caller needs to look at the thread or pick it up again. */
export interface NodeFailureFacts {
  readonly threadId: string;
  readonly nodeId: string;
  /** The checkpoint the thread can go on from; absent when none was stored yet. */
  readonly lastCheckpointId?: string;
}

/** The error of a node that failed: its own class and `code`, plus where it happened. */
export type NodeFailure = SkeinError & NodeFailureFacts;

/** True when `error` came out of a failed node (and so carries `NodeFailureFacts`). */
export function isNodeFailure(error: unknown): error is NodeFailure {
  return (
    SkeinError.isInstance(error) &&
    typeof (error as { threadId?: unknown }).threadId === 'string' &&
    typeof (error as { nodeId?: unknown }).nodeId === 'string'
  );
}

/**
 * The error a node failure reports. A SkeinError keeps its class and `code` (callers branch on
 * `TOOL_NOT_FOUND`, `LLM_CALL_FAILED`…) and is annotated with the thread, node and last
 * checkpoint; anything else — or a frozen error that cannot take the fields — is wrapped in a
 * `NodeError` (`NODE_FAILED`, the original as `cause`).
 */
export function nodeFailure(
  error: unknown,
  threadId: string,
  nodeId: string,
  lastCheckpointId: string | undefined,
): NodeFailure {
  if (SkeinError.isInstance(error) && Object.isExtensible(error)) {
    const facts: PropertyDescriptorMap = {
      threadId: { value: threadId, enumerable: true, configurable: true },
      nodeId: { value: nodeId, enumerable: true, configurable: true },
    };
    if (lastCheckpointId !== undefined)
      facts.lastCheckpointId = { value: lastCheckpointId, enumerable: true, configurable: true };
    try {
      Object.defineProperties(error, facts);
      return error as NodeFailure;
    } catch {
      // A non-configurable field of the same name: wrap instead.
    }
  }
  // `failed` sets both the thread and the node id.
  return NodeError.failed(threadId, nodeId, error, lastCheckpointId) as NodeFailure;
}
