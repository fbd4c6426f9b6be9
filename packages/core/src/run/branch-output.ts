import { evaluateExpression } from '../expressions/evaluate.js';
import { requireJsonValue } from '../thread/json-state-value.js';
import type { ThreadContext } from '../thread/thread-context.js';
import { frozenCopy } from '../util/freeze.js';

/**
 * What a branch gives its JOIN: the JOIN's `output` expression read against the branch, or the
 * output of the branch's last node.
 */
export function branchOutput(thread: ThreadContext, joinId: string): unknown {
  const join = thread.workflow.nodes.get(joinId);
  const source = join?.type === 'JOIN' ? join.config?.output : undefined;
  if (source === undefined) return thread.state.lastOutput ?? null;
  const compiled = thread.workflow.expressions.get(source);
  const value = compiled ? evaluateExpression(compiled, thread.scope()) : undefined;
  if (value === undefined) return null;
  requireJsonValue(value, `output of the branch ending at "${joinId}"`, `nodes.${joinId}`);
  return frozenCopy(value);
}
