import type { SkeinEmitter } from '../events/emitter.js';
import type { NodeOutcome } from '../nodes/node-handler.js';
import { frozenCopy } from '../thread/freeze.js';
import { isJsonPrimitive, requireJsonValue } from '../thread/json-state-value.js';
import type { ThreadContext } from '../thread/thread-context.js';
import { nextNode } from './routing.js';
import { runTriggers } from './triggers.js';

/**
 * Records a node that completed: its output, the next node, then the workflow's triggers. Runs
 * inside the node's error handling, so an output JSON cannot carry, a route that does not exist
 * or a failing trigger fail the node like an error of its own.
 */
export function completeNode(
  thread: ThreadContext,
  nodeId: string,
  step: number,
  outcome: Exclude<NodeOutcome, { kind: 'pause' }>,
  emitter: SkeinEmitter,
): void {
  const output = outcome.output;
  if (output !== undefined && !isJsonPrimitive(output))
    requireJsonValue(output, `output of node "${nodeId}"`, `nodes.${nodeId}`);
  const next = outcome.kind === 'next' ? nextNode(thread, nodeId, output) : undefined;
  thread.dispatch({
    type: 'node-completed',
    nodeId,
    step,
    next,
    output: frozenCopy(output),
    end: outcome.kind === 'end',
  });
  const triggers = thread.workflow.definition.triggers;
  if (outcome.kind === 'next' && triggers && triggers.length > 0) {
    const jump = runTriggers(thread, triggers, nodeId, emitter);
    if (jump !== undefined) thread.dispatch({ type: 'jumped', next: jump });
  }
}
