import type { SkeinEmitter } from '../events/emitter.js';
import type { NodeOutcome } from '../nodes/node-handler.js';
import { isJsonPrimitive, requireJsonValue } from '../thread/json-state-value.js';
import type { ThreadContext } from '../thread/thread-context.js';
import { addToolFailures } from '../thread/tool-failure-counts.js';
import { frozenCopy } from '../util/freeze.js';
import { withEntry } from '../util/with-entry.js';
import { nextNode } from './routing.js';
import { runTriggers } from './triggers.js';

/**
 * `variables` with `changes` set, each checked as JSON (a `VALUE_NOT_JSON` `ThreadError` naming
 * it) and frozen; a new frozen object.
 */
function withVariables(
  variables: Readonly<Record<string, unknown>>,
  changes: Readonly<Record<string, unknown>>,
): Readonly<Record<string, unknown>> {
  let result = variables;
  for (const name of Object.keys(changes)) {
    const value = changes[name];
    if (!isJsonPrimitive(value)) requireJsonValue(value, `variable "${name}"`, `vars.${name}`);
    result = withEntry(result, name, frozenCopy(value));
  }
  return Object.freeze(result);
}

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
  toolFailures: Readonly<Record<string, number>> | undefined,
  emitter: SkeinEmitter,
  guarded?: Readonly<Record<string, number>>,
): void {
  const output = outcome.output;
  if (output !== undefined && !isJsonPrimitive(output))
    requireJsonValue(output, `output of node "${nodeId}"`, `nodes.${nodeId}`);
  const variables = outcome.variables && withVariables(thread.variables, outcome.variables);
  const next =
    outcome.kind === 'next'
      ? (outcome.goto ?? nextNode(thread, nodeId, output, variables))
      : undefined;
  thread.dispatch({
    type: 'node-completed',
    nodeId,
    step,
    next,
    output: frozenCopy(output),
    end: outcome.kind === 'end',
    ...(variables ? { variables } : {}),
    ...(toolFailures
      ? { toolFailures: addToolFailures(thread.state.toolFailures, toolFailures) }
      : {}),
    ...(guarded ? { guarded } : {}),
  });
  const triggers = thread.workflow.definition.triggers;
  if (outcome.kind === 'next' && triggers && triggers.length > 0) {
    const jump = runTriggers(thread, triggers, nodeId, emitter);
    if (jump !== undefined) thread.dispatch({ type: 'jumped', next: jump });
  }
}
