import { NodeError } from '../errors/node-error.js';
import { ThreadError } from '../errors/thread-error.js';
import { evaluateIn } from '../nodes/node-expressions.js';
import type { NodeOutcome, NodeRunContext } from '../nodes/node-handler.js';
import type { ThreadContext } from '../thread/thread-context.js';
import { deepFreeze } from '../util/freeze.js';
import { setEntry, withEntry } from '../util/with-entry.js';
import type { JoinNode, MapNode, NodeDefinition, ParallelNode } from '../workflow/types.js';
import { throwChildTrip } from './branch-trip.js';
import { type ChildOutcome, type ChildPlan, childThreadId } from './child-plan.js';
import type { ChildRunner } from './child-runner.js';
import { keepChildren, pauseFor, runChildren } from './fan-out.js';
import { absorbChildren } from './settle-children.js';

/** A MAP runs this many branches at once unless it says otherwise. */
const DEFAULT_MAP_CONCURRENCY = 10;

type JoinConfig = NonNullable<JoinNode['config']>;

function joinConfig(thread: ThreadContext, joinId: string): JoinConfig {
  const join = thread.workflow.nodes.get(joinId);
  return (join?.type === 'JOIN' ? join.config : undefined) ?? {};
}

function needed(wait: JoinConfig['wait'], branches: number): number {
  if (wait === undefined || wait === 'all') return branches;
  if (wait === 'any') return Math.min(1, branches);
  return Math.min(wait.first, branches);
}

/** One entry per branch, in branch order, under the `collect` policy. */
function collected(results: readonly ChildOutcome[]) {
  return results.map((r) =>
    r.status === 'COMPLETED'
      ? { branch: r.plan.path, status: r.status, output: r.output ?? null }
      : { branch: r.plan.path, status: r.status, ...(r.error ? { error: r.error } : {}) },
  );
}

/** How the branches ended: how many completed, the first that failed, whether any waits. */
function tally(results: readonly ChildOutcome[]): {
  completed: number;
  failed: ChildOutcome | undefined;
  paused: boolean;
} {
  let completed = 0;
  let failed: ChildOutcome | undefined;
  let paused = false;
  for (const r of results) {
    if (r.status === 'COMPLETED') completed++;
    else if (r.status === 'FAILED') failed ??= r;
    else if (r.status === 'PAUSED') paused = true;
  }
  return { completed, failed, paused };
}

/** The outputs of the completed branches, in branch order (null for none). */
function completedOutputs(results: readonly ChildOutcome[]): unknown[] {
  const outputs: unknown[] = [];
  for (const r of results) if (r.status === 'COMPLETED') outputs.push(r.output ?? null);
  return outputs;
}

/**
 * Runs the branches and does what the JOIN asks with them: outputs in branch order (or a
 * per-branch record under `collect`), a failed branch fails the node under `fail-fast`, waiting
 * branches pause it, and the parent's conversation receives what `merge` says. Then on to the JOIN.
 */
async function fanOut(
  ctx: NodeRunContext<NodeDefinition>,
  runner: ChildRunner,
  plans: readonly ChildPlan[],
  joinId: string,
  maxConcurrency: number,
): Promise<NodeOutcome> {
  const { thread, node } = ctx;
  const join = joinConfig(thread, joinId);
  const failFast = join.onError !== 'collect';
  const need = needed(join.wait, plans.length);
  const merge = join.merge;
  const results = await runChildren(ctx, runner, plans, {
    maxConcurrency,
    needed: need,
    failFast,
    // Without a store, a fan-out that pauses finds its completed branches only in memory.
    keepCompleted: (merge !== undefined && merge !== 'none') || !runner.durable,
  });
  // Cancelled from outside: the node is undone (and runs again, finding its finished branches,
  // when the thread is run again), never completed with what happened to finish.
  if (ctx.signal?.aborted) {
    keepChildren(thread, results, false);
    throw ThreadError.cancelled(thread.threadId);
  }
  const { completed, failed, paused } = tally(results);
  const tripped = results.find((r) => r.error?.code === 'GUARDRAIL_TRIPPED');
  if (tripped) {
    keepChildren(thread, results, false);
    throwChildTrip(tripped);
  }
  if (failFast && failed) {
    keepChildren(thread, results, false);
    throw NodeError.branchFailed(failed.plan.path, failed.threadId, failed.error!);
  }
  if (completed < need && paused) {
    keepChildren(thread, results, true);
    return pauseFor(node.id, results);
  }
  keepChildren(thread, results, false);
  // Each output is frozen JSON already (checked as its branch ended): the array is frozen as it
  // is, not walked and copied again for the variable.
  const outputs = Object.freeze(
    join.onError === 'collect' ? collected(results).map(deepFreeze) : completedOutputs(results),
  );
  absorbChildren(ctx, results, merge, runner.mergers);
  return {
    kind: 'next',
    output: outputs,
    ...(join.outputVariable === undefined ? {} : { variables: { [join.outputVariable]: outputs } }),
  };
}

function branchPlan(
  thread: ThreadContext,
  nodeId: string,
  key: string,
  path: string,
  start: string,
  join: string,
  variables: Readonly<Record<string, unknown>>,
  conversation: 'forked' | 'isolated',
): ChildPlan {
  return {
    threadId: childThreadId(thread.threadId, nodeId, thread.state.step, key),
    path,
    workflowId: thread.workflow.id,
    version: thread.workflow.version,
    startAt: start,
    stopAt: join,
    variables,
    checkVariables: false,
    conversation,
  };
}

/** Starts one branch per PARALLEL branch and waits as their JOIN says. */
export function runParallel(ctx: NodeRunContext<ParallelNode>, runner: ChildRunner) {
  const { thread, node } = ctx;
  const { branches, join, maxConcurrency, conversation = 'forked' } = node.config;
  const plans = branches.map((b) =>
    branchPlan(
      thread,
      node.id,
      `/${b.name}`,
      `${node.id}/${b.name}`,
      b.start,
      join,
      thread.state.variables,
      conversation,
    ),
  );
  return fanOut(ctx, runner, plans, join, maxConcurrency ?? branches.length);
}

// `items: 'vars.list'` reads one variable: each branch gets its item, not the whole list (which
// would be stored again in every branch's checkpoints, N times N).
const ONE_VARIABLE = /^\s*vars\.([A-Za-z_$][\w$]*)\s*$/;

function withoutList(
  variables: Readonly<Record<string, unknown>>,
  items: string,
): Readonly<Record<string, unknown>> {
  const name = ONE_VARIABLE.exec(items)?.[1];
  if (name === undefined || !Object.hasOwn(variables, name)) return variables;
  const { [name]: _list, ...rest } = variables;
  return rest;
}

/** A MAP branch's variables: the parent's, with its item and index (copied, then set). */
function itemVariables(
  base: Readonly<Record<string, unknown>>,
  itemVariable: string,
  item: unknown,
  indexVariable: string,
  index: number,
): Record<string, unknown> {
  const variables = withEntry(base, itemVariable, item);
  setEntry(variables, indexVariable, index);
  return variables;
}

/** Starts one branch per item of the MAP's list and waits as their JOIN says. */
export function runMap(ctx: NodeRunContext<MapNode>, runner: ChildRunner) {
  const { thread, node } = ctx;
  const config = node.config;
  const items = evaluateIn(thread, config.items);
  if (!Array.isArray(items)) throw NodeError.mapItemsInvalid(node.id, config.items, items);
  const itemVariable = config.itemVariable ?? 'item';
  const indexVariable = config.indexVariable ?? 'index';
  const base = withoutList(thread.state.variables, config.items);
  const conversation = config.conversation ?? 'forked';
  const plans: ChildPlan[] = new Array(items.length);
  for (let i = 0; i < items.length; i++)
    plans[i] = branchPlan(
      thread,
      node.id,
      `[${i}]`,
      `${node.id}[${i}]`,
      config.start,
      config.join,
      Object.freeze(itemVariables(base, itemVariable, items[i], indexVariable, i)),
      conversation,
    );
  return fanOut(ctx, runner, plans, config.join, config.maxConcurrency ?? DEFAULT_MAP_CONCURRENCY);
}
