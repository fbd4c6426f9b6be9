import { ExpressionError } from '../errors/expression-error.js';
import { evaluateExpression, truthy } from '../expressions/evaluate.js';
import type { ThreadContext } from '../thread/thread-context.js';

/**
 * Whether an event's payload is one the thread's WAIT_FOR_EVENT takes: its `match` holds with
 * the payload as `event` beside the thread's scope (no `match`: any payload). Throws an
 * `ExpressionError` when the expression fails on this payload.
 */
export function eventMatches(thread: ThreadContext, nodeId: string, payload: unknown): boolean {
  const node = thread.workflow.nodes.get(nodeId);
  if (node?.type !== 'WAIT_FOR_EVENT' || node.config.match === undefined) return true;
  const source = node.config.match;
  const compiled = thread.workflow.expressions.get(source);
  if (!compiled) throw new Error(`expression "${source}" was not compiled with the workflow`);
  try {
    return truthy(evaluateExpression(compiled, { ...thread.scope(), event: payload }));
  } catch (error) {
    throw ExpressionError.evaluation(
      source,
      `in the match of node "${nodeId}": ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}
