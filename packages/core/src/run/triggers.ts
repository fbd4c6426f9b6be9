import { NodeError } from '../errors/node-error.js';
import type { SkeinEmitter } from '../events/emitter.js';
import { evaluateExpression, truthy } from '../expressions/evaluate.js';
import { applyContextOperation } from '../nodes/context-processor-node.js';
import type { ThreadContext } from '../thread/thread-context.js';
import {
  toolFailureCount,
  totalToolFailures,
  withToolFailures,
} from '../thread/tool-failure-counts.js';
import type { TriggerCondition, TriggerDefinition } from '../workflow/types.js';

function holds(
  condition: TriggerCondition,
  thread: ThreadContext,
  completedNodeId: string,
): boolean {
  switch (condition.type) {
    case 'visible-messages-over':
      return thread.conversation.getMessageCount() > condition.count;
    case 'visible-tokens-over':
      // The conversation's own counter: the one the engine was configured with.
      return thread.conversation.countVisibleTokens() > condition.tokens;
    case 'node-completed':
      return completedNodeId === condition.nodeId;
    case 'tool-failed': {
      const failures = thread.state.toolFailures;
      const count =
        condition.tool !== undefined
          ? toolFailureCount(failures, condition.tool)
          : totalToolFailures(failures);
      return count >= condition.times;
    }
    case 'expression': {
      const compiled = thread.workflow.expressions.get(condition.expression);
      return compiled ? truthy(evaluateExpression(compiled, thread.scope())) : false;
    }
  }
}

function fire(thread: ThreadContext, trigger: TriggerDefinition): string | undefined {
  const { action } = trigger;
  switch (action.type) {
    case 'context':
      applyContextOperation(thread.conversation, action.operation);
      return undefined;
    case 'set-variable': {
      const compiled = thread.workflow.expressions.get(action.expression);
      if (compiled)
        thread.setVariable(action.variable, evaluateExpression(compiled, thread.scope()));
      return undefined;
    }
    case 'goto':
      return action.nodeId;
  }
}

/**
 * Runs the workflow's triggers after a node, in declaration order. Returns the node to jump to
 * when a `goto` fired. Each firing is a `trigger:fired` event. A condition or action that throws
 * becomes a `NodeError` (`TRIGGER_FAILED`) naming the trigger; the executor then treats the node
 * as failed.
 */
export function runTriggers(
  thread: ThreadContext,
  triggers: readonly TriggerDefinition[],
  completedNodeId: string,
  emitter: SkeinEmitter,
): string | undefined {
  let jump: string | undefined;
  for (const trigger of triggers) {
    if (trigger.once && thread.state.firedTriggers.includes(trigger.id)) continue;
    let stage: 'condition' | 'action' = 'condition';
    try {
      if (!holds(trigger.when, thread, completedNodeId)) continue;
      stage = 'action';
      const target = fire(thread, trigger);
      if (target !== undefined) jump = target;
    } catch (error) {
      throw NodeError.triggerFailed(thread.threadId, trigger.id, completedNodeId, stage, error);
    }
    // A tool-failed trigger counts failures since it last fired.
    const when = trigger.when;
    if (trigger.once) thread.dispatch({ type: 'trigger-fired', triggerId: trigger.id });
    if (when.type === 'tool-failed')
      thread.dispatch({
        type: 'tool-failures-counted',
        toolFailures: withToolFailures(thread.state.toolFailures, (counts) => {
          if (when.tool !== undefined) counts[when.tool] = 0;
          else for (const name of Object.keys(counts)) counts[name] = 0;
        }),
      });
    emitter.emit('trigger:fired', {
      threadId: thread.threadId,
      triggerId: trigger.id,
      action: trigger.action.type,
    });
  }
  return jump;
}
