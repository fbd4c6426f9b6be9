import { ExpressionEvaluationError } from '../errors/expression-evaluation-error.js';
import { NoRouteError } from '../errors/no-route-error.js';
import { type ExpressionScope, evaluateExpression, truthy } from '../expressions/evaluate.js';
import type { CompiledWorkflow } from '../workflow/compiled-workflow.js';

/**
 * The node after `nodeId`: the first conditional edge whose condition holds, in declaration
 * order, else the default edge. Throws `NoRouteError` when nothing matches.
 */
export function nextNode(
  workflow: CompiledWorkflow,
  nodeId: string,
  scope: ExpressionScope,
): string {
  const edges = workflow.outgoing.get(nodeId) ?? [];
  for (const edge of edges) {
    if (!edge.condition) return edge.to;
    let holds: unknown;
    try {
      holds = evaluateExpression(edge.condition, scope);
    } catch (error) {
      throw new ExpressionEvaluationError(
        edge.condition.source,
        `on edge "${edge.id}": ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    if (truthy(holds)) return edge.to;
  }
  throw new NoRouteError(nodeId);
}
