import { InvalidArgumentError } from '@skein/spec';
import { produce } from 'immer';
import { type ThreadState, withChanges } from './thread-state.js';
import type { ThreadTransition } from './thread-transition.js';
import { withEntry } from './with-entry.js';

/**
 * The next thread state after `transition`. Pure: `state` is never modified and the result is a
 * new frozen object (or `state` itself). Hot transitions build the object by hand with every
 * field written out — one hidden class for all states, no immer draft per step (decision 0003).
 */
export function applyTransition(state: ThreadState, transition: ThreadTransition): ThreadState {
  switch (transition.type) {
    case 'node-completed':
      return completed(state, transition);
    case 'jumped':
      return withChanges(state, { currentNodeId: transition.next });
    case 'variables-set':
      return withVariables(state, transition.variables);
    case 'run-started':
      return withStatus(state, 'RUNNING', undefined, state.output);
    case 'finished':
      return withStatus(state, transition.status, transition.error, transition.output);
    case 'paused':
      return withChanges(state, { status: 'PAUSED', pending: transition.pending });
    case 'resume-claimed':
      if (!state.pending)
        throw new InvalidArgumentError(
          'state.pending',
          `thread ${state.threadId} has no pause to claim`,
        );
      return withChanges(state, {
        status: 'RUNNING',
        error: undefined,
        pending: Object.freeze({
          ...state.pending,
          answer: Object.freeze({ input: transition.input }),
        }),
      });
    case 'ended':
      return withChanges(state, { status: transition.status, error: transition.error });
    case 'restored':
      if (transition.state.threadId !== state.threadId)
        throw new InvalidArgumentError(
          'state',
          `state belongs to thread ${transition.state.threadId}, not ${state.threadId}`,
        );
      return transition.state;
    case 'tool-failures-counted':
      return withChanges(state, { toolFailures: transition.toolFailures });
    case 'trigger-fired':
      return withChanges(state, {
        firedTriggers: Object.freeze([...state.firedTriggers, transition.triggerId]),
      });
    case 'dynamic-tools-changed':
      return withChanges(state, { dynamicTools: Object.freeze([...transition.names]) });
    case 'recipe':
      return produce(state, transition.recipe);
    case 'patched':
      return withChanges(state, transition.changes);
  }
}

function completed(
  s: ThreadState,
  t: Extract<ThreadTransition, { type: 'node-completed' }>,
): ThreadState {
  const output = t.output;
  const has = output !== undefined;
  return Object.freeze({
    threadId: s.threadId,
    workflowId: s.workflowId,
    workflowVersion: s.workflowVersion,
    status: s.status,
    step: t.step + 1,
    currentNodeId: t.next,
    input: s.input,
    variables: s.variables,
    nodeOutputs: has ? Object.freeze(withEntry(s.nodeOutputs, t.nodeId, output)) : s.nodeOutputs,
    lastOutput: has ? output : s.lastOutput,
    output: t.end ? output : s.output,
    error: s.error,
    pending: undefined,
    dynamicTools: s.dynamicTools,
    toolFailures: s.toolFailures,
    firedTriggers: s.firedTriggers,
    createdAt: s.createdAt,
    parent: s.parent,
  });
}

function withVariables(s: ThreadState, variables: Readonly<Record<string, unknown>>): ThreadState {
  return Object.freeze({
    threadId: s.threadId,
    workflowId: s.workflowId,
    workflowVersion: s.workflowVersion,
    status: s.status,
    step: s.step,
    currentNodeId: s.currentNodeId,
    input: s.input,
    variables,
    nodeOutputs: s.nodeOutputs,
    lastOutput: s.lastOutput,
    output: s.output,
    error: s.error,
    pending: s.pending,
    dynamicTools: s.dynamicTools,
    toolFailures: s.toolFailures,
    firedTriggers: s.firedTriggers,
    createdAt: s.createdAt,
    parent: s.parent,
  });
}

/** A run starting or ending: written out like `completed`, no changes object to look through. */
function withStatus(
  s: ThreadState,
  status: ThreadState['status'],
  error: ThreadState['error'],
  output: unknown,
): ThreadState {
  return Object.freeze({
    threadId: s.threadId,
    workflowId: s.workflowId,
    workflowVersion: s.workflowVersion,
    status,
    step: s.step,
    currentNodeId: s.currentNodeId,
    input: s.input,
    variables: s.variables,
    nodeOutputs: s.nodeOutputs,
    lastOutput: s.lastOutput,
    output,
    error,
    pending: s.pending,
    dynamicTools: s.dynamicTools,
    toolFailures: s.toolFailures,
    firedTriggers: s.firedTriggers,
    createdAt: s.createdAt,
    parent: s.parent,
  });
}
