import { NodeError } from '../errors/node-error.js';
import type { NodeHandler, NodeRunContext } from '../nodes/node-handler.js';
import type { JoinNode, MapNode, ParallelNode, SubworkflowNode } from '../workflow/types.js';
import type { ChildRunner } from './child-runner.js';
import { runMap, runParallel } from './fan-out-node.js';
import { runSubworkflow } from './subworkflow-node.js';

export interface BranchHandlers {
  readonly PARALLEL: NodeHandler<ParallelNode>;
  readonly MAP: NodeHandler<MapNode>;
  readonly JOIN: NodeHandler<JoinNode>;
  readonly SUBWORKFLOW: NodeHandler<SubworkflowNode>;
}

/**
 * The handlers of the nodes that start child threads, over `runner`; without one (an executor
 * with no thread builder) each fails its node with a `NodeError` (`CHILD_THREADS_UNAVAILABLE`).
 */
export function branchHandlers(runner: ChildRunner | undefined): BranchHandlers {
  const need = (ctx: NodeRunContext): ChildRunner => {
    if (!runner) throw NodeError.childThreadsUnavailable(ctx.node.id);
    return runner;
  };
  return {
    PARALLEL: (ctx) => runParallel(ctx, need(ctx)),
    MAP: (ctx) => runMap(ctx, need(ctx)),
    // The branches' outputs were gathered by their PARALLEL or MAP node: pass them on.
    JOIN: ({ thread }) => ({ kind: 'next', output: thread.state.lastOutput }),
    SUBWORKFLOW: (ctx) => runSubworkflow(ctx, need(ctx)),
  };
}
