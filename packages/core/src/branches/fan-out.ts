import { setMaxListeners } from 'node:events';
import type { NodeOutcome, NodeRunContext } from '../nodes/node-handler.js';
import { answeredBranch, type BranchAnswer } from '../pauses/branches.js';
import { pauseKindOf } from '../pauses/pause-kinds.js';
import { resumedPause } from '../pauses/pause-of-kind.js';
import type { ThreadContext } from '../thread/thread-context.js';
import type { BranchWait } from '../thread/thread-state.js';
import type { NodeDefinition } from '../workflow/types.js';
import type { ChildOutcome, ChildPlan, ChildResult } from './child-plan.js';
import type { ChildResume, ChildRunner, RunChildOptions } from './child-runner.js';

export interface FanOutPolicy {
  readonly maxConcurrency: number;
  /** How many completed branches satisfy the wait (the rest are then cancelled). */
  readonly needed: number;
  readonly failFast: boolean;
  /**
   * Keep the threads of completed branches: the JOIN merges their messages, or there is no store
   * to find them in again should the fan-out pause.
   */
  readonly keepCompleted: boolean;
}

/**
 * What the child at `path` is resumed with by `answer`: the answer itself when it is for that
 * child, the answer for a branch further down (its path relative to the child) when it is for
 * one of the child's own branches, nothing otherwise.
 */
export function answerFor(path: string, answer: BranchAnswer | undefined): ChildResume | undefined {
  if (!answer) return undefined;
  const timedOut = answer.timedOut === true;
  if (answer.branch === path)
    return timedOut ? { input: answer.input, timedOut } : { input: answer.input };
  if (!answer.branch.startsWith(`${path}/`)) return undefined;
  const below = { branch: answer.branch.slice(path.length + 1), input: answer.input };
  return { input: timedOut ? { ...below, timedOut } : below };
}

/** Every thread that waits below these results, with its path from the parent. */
function waitingBranches(results: readonly ChildOutcome[]): BranchWait[] {
  return results.flatMap((r): BranchWait[] => {
    if (r.status !== 'PAUSED' || !r.thread) return [];
    const pending = r.thread.state.pending;
    if (!pending) return [];
    return pauseKindOf(pending).branchWaits(pending, { path: r.plan.path, threadId: r.threadId });
  });
}

/** The answer in a resume input, checked against what the node's children wait for. */
export function branchAnswer(ctx: NodeRunContext<NodeDefinition>): BranchAnswer | undefined {
  const pending = resumedPause(ctx, 'branches');
  if (!pending) return undefined;
  return answeredBranch(ctx.thread.threadId, pending.waiting, ctx.resume!.input).answer;
}

/** A completed branch as its JOIN needs it: the thread let go, what it spent and broke kept. */
function settled(result: ChildResult): ChildOutcome {
  const { thread } = result;
  const usage = thread.totalUsage();
  const toolFailures = thread.state.toolFailures;
  return {
    plan: result.plan,
    threadId: result.threadId,
    status: result.status,
    output: result.output,
    usage:
      usage.totalTokens > 0 || usage.promptTokens > 0 || usage.completionTokens > 0
        ? usage
        : undefined,
    toolFailures: Object.keys(toolFailures).length > 0 ? toolFailures : undefined,
  };
}

/** One fan-out in progress: what its workers share. */
interface FanOutRun {
  readonly thread: ThreadContext;
  readonly runner: ChildRunner;
  readonly plans: readonly ChildPlan[];
  readonly policy: FanOutPolicy;
  readonly answer: BranchAnswer | undefined;
  /** What every child runs with, unless it is answered (then a copy with its `resume`). */
  readonly options: RunChildOptions;
  readonly local: AbortController;
  readonly results: (ChildOutcome | undefined)[];
  next: number;
  completed: number;
  stopped: boolean;
}

/** One of a fan-out's workers: takes the next plan until none is left or the wait is over. */
async function work(run: FanOutRun): Promise<void> {
  const { plans, policy } = run;
  while (!run.stopped && run.next < plans.length) {
    const i = run.next++;
    const plan = plans[i]!;
    const resume = answerFor(plan.path, run.answer);
    const result = await run.runner.run(
      run.thread,
      plan,
      resume ? { ...run.options, resume } : run.options,
    );
    run.results[i] =
      result.status === 'COMPLETED' && !policy.keepCompleted ? settled(result) : result;
    if (result.status === 'COMPLETED') run.completed++;
    const stop = (result.status === 'FAILED' && policy.failFast) || run.completed >= policy.needed;
    if (stop && run.completed < plans.length) run.local.abort();
    // Once stopped, stays stopped: another worker's branch may end after a fail-fast one.
    if (stop) run.stopped = true;
  }
}

/** A child the JOIN stopped waiting for before it started. */
function notStarted(plan: ChildPlan): ChildOutcome {
  return {
    plan,
    threadId: plan.threadId,
    status: 'CANCELLED',
    error: { code: 'THREAD_CANCELLED', message: 'not started: the JOIN no longer waited for it' },
  };
}

/**
 * Runs children with at most `maxConcurrency` at once and stops early when the wait is satisfied
 * or (fail-fast) one fails, cancelling those still running. Results come back in plan order,
 * whatever order the children finished in; children never started count as CANCELLED.
 */
export async function runChildren(
  ctx: NodeRunContext<NodeDefinition>,
  runner: ChildRunner,
  plans: readonly ChildPlan[],
  policy: FanOutPolicy,
): Promise<ChildOutcome[]> {
  const signal = ctx.signal;
  const local = new AbortController();
  const childSignal = signal ? AbortSignal.any([signal, local.signal]) : local.signal;
  // Every running branch listens to it (its model call, its tools): up to maxConcurrency of them
  // at once is expected, not a leak, so Node's warning past 10 listeners does not apply.
  setMaxListeners(0, childSignal);
  const options: RunChildOptions = {
    nodeId: ctx.node.id,
    signal: childSignal,
    maxSteps: ctx.maxSteps ?? 1_000,
    recovering: ctx.recovering === true || ctx.resume !== undefined,
  };
  const results: (ChildOutcome | undefined)[] = new Array(plans.length);
  const run: FanOutRun = {
    thread: ctx.thread,
    runner,
    plans,
    policy,
    answer: branchAnswer(ctx),
    options,
    local,
    results,
    next: 0,
    completed: 0,
    stopped: false,
  };
  const workers: Promise<void>[] = [];
  for (let w = Math.max(1, Math.min(policy.maxConcurrency, plans.length)); w > 0; w--)
    workers.push(work(run));
  await Promise.all(workers);
  const outcomes: ChildOutcome[] = new Array(plans.length);
  for (let i = 0; i < plans.length; i++) outcomes[i] = run.results[i] ?? notStarted(plans[i]!);
  return outcomes;
}

/** Holds the children of a node that waits; lets them go once it has finished. */
export function keepChildren(
  thread: ThreadContext,
  results: readonly ChildOutcome[],
  hold: boolean,
): void {
  for (const r of results) {
    if (r.thread === thread) continue;
    const { record } = thread;
    if (hold && r.thread) {
      record.held ??= new Map();
      record.held.set(r.threadId, r.thread);
    } else record.held?.delete(r.threadId);
  }
}

/** The pause of a node whose children wait. */
export function pauseFor(nodeId: string, results: readonly ChildOutcome[]): NodeOutcome {
  return {
    kind: 'pause',
    pending: { kind: 'branches', nodeId, waiting: waitingBranches(results) },
  };
}
