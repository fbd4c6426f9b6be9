import { NodeError } from '../errors/node-error.js';
import { ThreadError } from '../errors/thread-error.js';
import type { NodeRunContext } from '../nodes/node-handler.js';
import type { WorkflowCaller } from '../tools/workflow-call.js';
import { childThreadId } from './child-plan.js';
import type { ChildRunner } from './child-runner.js';
import { absorbChildren } from './settle-children.js';

/**
 * How tools called by this node run workflows: each call a child thread (its id from the node,
 * step and tool call id, so a re-run finds a finished one), its usage and tool failures added to
 * the caller's, its END output the result. A child that would wait for input fails the call.
 */
export function workflowCaller(ctx: NodeRunContext, runner: ChildRunner): WorkflowCaller {
  const { thread, node } = ctx;
  const step = thread.state.step;
  return async ({ workflowId, version, variables, message, toolCallId, signal }) => {
    const result = await runner.run(
      thread,
      {
        threadId: childThreadId(thread.threadId, node.id, step, `#${toolCallId}`),
        path: `${node.id}#${toolCallId}`,
        workflowId,
        ...(version === undefined ? {} : { version }),
        variables: variables ?? {},
        checkVariables: true,
        ...(message === undefined ? {} : { message }),
        conversation: 'isolated',
      },
      {
        nodeId: node.id,
        signal,
        maxSteps: ctx.maxSteps ?? 1_000,
        recovering: ctx.recovering === true || ctx.resume !== undefined,
      },
    );
    if (result.status === 'PAUSED')
      throw NodeError.workflowToolPaused(workflowId, result.thread.threadId);
    if (result.status === 'CANCELLED') throw ThreadError.cancelled(result.thread.threadId);
    if (result.status === 'FAILED')
      throw NodeError.subworkflowFailed(workflowId, result.thread.threadId, result.error!);
    absorbChildren(ctx, [result], 'none', {});
    return result.output ?? null;
  };
}
