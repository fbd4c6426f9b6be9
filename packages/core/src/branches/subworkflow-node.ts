import { NodeError } from '../errors/node-error.js';
import { ThreadError } from '../errors/thread-error.js';
import { evaluateExpression } from '../expressions/evaluate.js';
import { evaluateIn, renderIn } from '../nodes/node-expressions.js';
import type { NodeOutcome, NodeRunContext } from '../nodes/node-handler.js';
import type { SubworkflowNode } from '../workflow/types.js';
import { throwChildTrip } from './branch-trip.js';
import { childThreadId } from './child-plan.js';
import type { ChildRunner } from './child-runner.js';
import { answerFor, branchAnswer, keepChildren, pauseFor } from './fan-out.js';
import { absorbChildren } from './settle-children.js';

/**
 * Runs another registered workflow as a child thread: its variables from `input` (expressions over
 * this thread), its END output mapped back by `output` (expressions over the child), its
 * conversation isolated unless `forked`. A child that waits pauses this thread; a child that fails
 * fails this node with a `NodeError` (`SUBWORKFLOW_FAILED`).
 */
export async function runSubworkflow(
  ctx: NodeRunContext<SubworkflowNode>,
  runner: ChildRunner,
): Promise<NodeOutcome> {
  const { thread, node } = ctx;
  const signal = ctx.signal;
  const config = node.config;
  const variables: Record<string, unknown> = {};
  for (const [name, source] of Object.entries(config.input ?? {}))
    variables[name] = evaluateIn(thread, source);
  const answer = branchAnswer(ctx);
  const plan = {
    threadId: childThreadId(thread.threadId, node.id, thread.state.step, ''),
    path: node.id,
    workflowId: config.workflow,
    ...(config.version === undefined ? {} : { version: config.version }),
    variables,
    checkVariables: true,
    ...(config.message === undefined ? {} : { message: renderIn(thread, config.message) }),
    conversation: config.conversation ?? 'isolated',
  };
  const resume = answerFor(node.id, answer);
  const result = await runner.run(thread, plan, {
    nodeId: node.id,
    signal,
    maxSteps: ctx.maxSteps ?? 1_000,
    recovering: ctx.recovering === true || ctx.resume !== undefined,
    ...(resume ? { resume } : {}),
  });
  if (result.status === 'PAUSED') {
    keepChildren(thread, [result], true);
    return pauseFor(node.id, [result]);
  }
  keepChildren(thread, [result], false);
  if (result.status === 'CANCELLED') throw ThreadError.cancelled(result.thread.threadId);
  if (result.status === 'FAILED') {
    throwChildTrip(result);
    throw NodeError.subworkflowFailed(config.workflow, result.thread.threadId, result.error!);
  }
  absorbChildren(ctx, [result], config.merge, runner.mergers);
  const childScope = { ...result.thread.scope(), output: result.output };
  const assigned: Record<string, unknown> = {};
  for (const [name, source] of Object.entries(config.output ?? {})) {
    // Compiled with this workflow, read against the child.
    const compiled = thread.workflow.expressions.get(source);
    assigned[name] = compiled ? evaluateExpression(compiled, childScope) : undefined;
  }
  if (config.outputVariable !== undefined) assigned[config.outputVariable] = result.output ?? null;
  return { kind: 'next', output: result.output ?? null, variables: assigned };
}
