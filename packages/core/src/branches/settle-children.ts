import type { TokenUsage } from '@skein/spec';
import type { NodeRunContext } from '../nodes/node-handler.js';
import { NO_TOOL_FAILURES } from '../thread/tool-failure-counts.js';
import type { MergePolicy } from '../workflow/types.js';
import type { ChildOutcome } from './child-plan.js';
import type { MergeFunction } from './merge.js';
import { mergedMessages } from './merge.js';

function toolFailuresOf(r: ChildOutcome): Readonly<Record<string, number>> {
  return r.thread ? r.thread.state.toolFailures : (r.toolFailures ?? NO_TOOL_FAILURES);
}

/**
 * What finished children leave in their parent: the merged messages (in branch order), their
 * token usage and their tool failures added to the parent's. Runs inside the node, so a node
 * that fails afterwards takes all of it back.
 */
export function absorbChildren(
  ctx: NodeRunContext,
  results: readonly ChildOutcome[],
  merge: MergePolicy | undefined,
  mergers: Readonly<Record<string, MergeFunction>>,
): void {
  const { thread } = ctx;
  for (const message of mergedMessages(merge, results, ctx.node.id, mergers))
    thread.conversation.addMessage(message);
  const usage = { promptTokens: 0, completionTokens: 0, totalTokens: 0 };
  for (const r of results) {
    if (r.thread === thread) continue;
    const total: TokenUsage | undefined = r.thread ? r.thread.totalUsage() : r.usage;
    if (total) {
      usage.promptTokens += total.promptTokens;
      usage.completionTokens += total.completionTokens;
      usage.totalTokens += total.totalTokens;
    }
  }
  if (usage.totalTokens > 0 || usage.promptTokens > 0 || usage.completionTokens > 0)
    thread.conversation.recordUsage(usage);
  for (const r of results) if (r.thread !== thread) ctx.countToolFailures(toolFailuresOf(r));
}
