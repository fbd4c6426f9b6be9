import { ExpressionError } from '../errors/expression-error.js';
import { NodeError } from '../errors/node-error.js';
import { type ExpressionScope, evaluateExpression, truthy } from '../expressions/evaluate.js';
import type { ThreadContext } from '../thread/thread-context.js';

/**
 * The node after `nodeId`: the first conditional edge whose condition holds (read with the
 * node's output in place), in declaration order, else the default edge. Throws a `NodeError`
 * (`NO_ROUTE`) when nothing matches.
 */
export function nextNode(
  thread: ThreadContext,
  nodeId: string,
  output: unknown,
  variables?: Readonly<Record<string, unknown>>,
): string {
  const edges = thread.workflow.outgoing.get(nodeId) ?? [];
  // Built only for a condition: most nodes leave by one plain edge, and a scope is two objects.
  let scope: ExpressionScope | undefined;
  for (const edge of edges) {
    if (!edge.condition) return edge.to;
    scope ??= thread.scopeAfter(nodeId, output, variables);
    let holds: unknown;
    try {
      holds = evaluateExpression(edge.condition, scope);
    } catch (error) {
      throw ExpressionError.evaluation(
        edge.condition.source,
        `on edge "${edge.id}": ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    if (truthy(holds)) return edge.to;
  }
  throw NodeError.noRoute(nodeId);
}
