import { findNonJsonValue } from '@skein/spec';
import { pauseKindOf } from '../pauses/pause-kinds.js';
import type { ThreadState } from '../thread/thread-state.js';
import type { ThreadTransition } from '../thread/thread-transition.js';
import { deepFreeze } from '../util/freeze.js';
import type { CompiledWorkflow } from '../workflow/compiled-workflow.js';
import type { MigrationStep } from './migrations.js';

/** Why one thread cannot move to the new version. */
export interface UpgradeProblem {
  readonly threadId: string;
  readonly code:
    | 'THREAD_RUNNING'
    | 'CHILD_THREAD'
    | 'WAITS_ON_BRANCHES'
    | 'NO_MIGRATION'
    | 'NODE_MISSING'
    | 'NODE_TYPE_CHANGED'
    | 'MIGRATION_FAILED'
    | 'VARIABLES_INVALID';
  readonly message: string;
  readonly nodeId?: string;
}

/** Checks variables against a workflow's schema: a line of problems, or undefined. */
export type VariablesCheck = (
  workflow: CompiledWorkflow,
  variables: Readonly<Record<string, unknown>>,
) => string | undefined;

function renamed(nodes: Readonly<Record<string, string>> | undefined, id: string): string {
  return nodes && Object.hasOwn(nodes, id) ? nodes[id]! : id;
}

/**
 * How a thread's state moves along `steps` to `target`: node ids renamed and variables made by
 * each migration in turn, then checked against the new version — the node it is at and the node
 * it waits at must exist there (of the kind the pause needs), and the variables must be JSON the
 * new schema accepts. Every problem is listed; nothing is changed here.
 */
export function planUpgrade(
  state: ThreadState,
  steps: readonly MigrationStep[],
  target: CompiledWorkflow,
  checkVariables: VariablesCheck,
): { transition: ThreadTransition } | { problems: UpgradeProblem[] } {
  const threadId = state.threadId;
  const problems: UpgradeProblem[] = [];
  const problem = (code: UpgradeProblem['code'], message: string, nodeId?: string) =>
    problems.push({ threadId, code, message, ...(nodeId === undefined ? {} : { nodeId }) });
  if (state.status === 'RUNNING')
    problem('THREAD_RUNNING', 'it is RUNNING: upgrade it once it pauses, waits or ends');
  if (state.parent)
    problem('CHILD_THREAD', `it is a branch of ${state.parent.threadId}: upgrade that thread`);
  const upgrade = state.pending && pauseKindOf(state.pending).upgrade(state.pending);
  if (upgrade && 'refused' in upgrade) problem('WAITS_ON_BRANCHES', upgrade.refused);
  if (problems.length > 0) return { problems };

  let current = state.currentNodeId;
  let pending = state.pending;
  let variables = state.variables;
  let outputs = state.nodeOutputs;
  for (const { to, migration } of steps) {
    const nodes = migration.nodes;
    if (current !== undefined) current = renamed(nodes, current);
    if (pending) pending = { ...pending, nodeId: renamed(nodes, pending.nodeId) };
    if (nodes) {
      const next: Record<string, unknown> = {};
      for (const [id, output] of Object.entries(outputs)) next[renamed(nodes, id)] = output;
      outputs = next;
    }
    if (migration.variables) {
      try {
        variables = migration.variables(variables);
      } catch (error) {
        problem(
          'MIGRATION_FAILED',
          `the variables migration to version ${to} threw: ${error instanceof Error ? error.message : String(error)}`,
        );
        return { problems };
      }
    }
  }
  if (current !== undefined && !target.nodes.has(current))
    problem(
      'NODE_MISSING',
      `it is at node "${current}", which version ${target.version} does not have (map it in migrate.nodes)`,
      current,
    );
  if (pending) {
    const node = target.nodes.get(pending.nodeId);
    const wanted = upgrade && 'nodeType' in upgrade ? upgrade.nodeType : undefined;
    // The node it is at is the one it waits at: reported once.
    if (!node) {
      if (pending.nodeId !== current)
        problem(
          'NODE_MISSING',
          `it waits at node "${pending.nodeId}", which version ${target.version} does not have (map it in migrate.nodes)`,
          pending.nodeId,
        );
    } else if (wanted && node.type !== wanted)
      problem(
        'NODE_TYPE_CHANGED',
        `it waits (${pending.kind}) at node "${pending.nodeId}", which is ${node.type} in version ${target.version}, not ${wanted}`,
        pending.nodeId,
      );
  }
  const notJson =
    typeof variables === 'object' && variables !== null && !Array.isArray(variables)
      ? findNonJsonValue(variables, 'vars')
      : { path: 'vars', reason: 'not an object' };
  if (notJson) problem('VARIABLES_INVALID', `the migrated ${notJson.path} is ${notJson.reason}`);
  else {
    const schemaProblems = checkVariables(target, variables);
    if (schemaProblems)
      problem(
        'VARIABLES_INVALID',
        `the variables do not match version ${target.version}'s schema: ${schemaProblems}`,
      );
  }
  if (problems.length > 0) return { problems };
  return {
    transition: {
      type: 'upgraded',
      workflowVersion: target.version,
      currentNodeId: current,
      pending: pending && deepFreeze(structuredClone(pending)),
      variables: deepFreeze(structuredClone(variables)),
      nodeOutputs: outputs === state.nodeOutputs ? outputs : Object.freeze(outputs),
    },
  };
}
