import { defaultTokenCounter, type LLMMessage } from '@skein/conversation';
import type { SkeinEmitter } from '../events/emitter.js';
import { evaluateExpression, truthy } from '../expressions/evaluate.js';
import { applyContextOperation } from '../nodes/context-processor-node.js';
import type { ThreadContext } from '../thread/thread-context.js';
import type { TriggerCondition, TriggerDefinition } from '../workflow/types.js';

// Stored messages are frozen, so a token count per message object never goes stale.
const tokenCache = new WeakMap<LLMMessage, number>();

function visibleTokens(thread: ThreadContext): number {
  let total = 0;
  for (const message of thread.conversation.getMessages()) {
    let tokens = tokenCache.get(message);
    if (tokens === undefined) {
      tokens = defaultTokenCounter(message);
      tokenCache.set(message, tokens);
    }
    total += tokens;
  }
  return total;
}

function holds(
  condition: TriggerCondition,
  thread: ThreadContext,
  completedNodeId: string,
): boolean {
  switch (condition.type) {
    case 'visible-messages-over':
      return thread.conversation.getMessageCount() > condition.count;
    case 'visible-tokens-over':
      return visibleTokens(thread) > condition.tokens;
    case 'node-completed':
      return completedNodeId === condition.nodeId;
    case 'tool-failed': {
      const failures = thread.state.toolFailures;
      const count = condition.tool
        ? (failures[condition.tool] ?? 0)
        : Object.values(failures).reduce((a, b) => a + b, 0);
      return count >= condition.times;
    }
    case 'expression': {
      const compiled = thread.workflow.expressions.get(condition.expression);
      return compiled ? truthy(evaluateExpression(compiled, thread.scope())) : false;
    }
  }
}

/**
 * Runs the workflow's triggers after a node, in declaration order. Returns the node to jump to
 * when a `goto` fired. Each firing is a `trigger:fired` event.
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
    if (!holds(trigger.when, thread, completedNodeId)) continue;
    const { action } = trigger;
    switch (action.type) {
      case 'context':
        applyContextOperation(thread.conversation, action.operation);
        break;
      case 'set-variable': {
        const compiled = thread.workflow.expressions.get(action.expression);
        if (compiled)
          thread.setVariable(action.variable, evaluateExpression(compiled, thread.scope()));
        break;
      }
      case 'goto':
        jump = action.nodeId;
        break;
    }
    // A tool-failed trigger counts failures since it last fired.
    thread.update((draft) => {
      if (trigger.once) draft.firedTriggers.push(trigger.id);
      if (trigger.when.type === 'tool-failed') {
        if (trigger.when.tool) draft.toolFailures[trigger.when.tool] = 0;
        else for (const name of Object.keys(draft.toolFailures)) draft.toolFailures[name] = 0;
      }
    });
    emitter.emit('trigger:fired', {
      threadId: thread.threadId,
      triggerId: trigger.id,
      action: action.type,
    });
  }
  return jump;
}
