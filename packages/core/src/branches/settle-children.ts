import type { TokenUsage } from '@skein/spec';
import type { ThreadContext } from '../thread/thread-context.js';
import { withToolFailures } from '../thread/tool-failure-counts.js';
import type { MergePolicy } from '../workflow/types.js';
import type { ChildOutcome } from './child-plan.js';
import type { MergeFunction } from './merge.js';
import { mergedMessages } from './merge.js';

const NO_FAILURES: Readonly<Record<string, number>> = Object.freeze({});

function toolFailuresOf(r: ChildOutcome): Readonly<Record<string, number>> {
  return r.thread ? r.thread.state.toolFailures : (r.toolFailures ?? NO_FAILURES);
}

/**
 * What finished children leave in their parent: the merged messages (in branch order), their
 * token usage and their tool failures added to the parent's. Runs inside the node, so a node
 * that fails afterwards takes all of it back.
 */
export function absorbChildren(
  thread: ThreadContext,
  nodeId: string,
  results: readonly ChildOutcome[],
  merge: MergePolicy | undefined,
  mergers: Readonly<Record<string, MergeFunction>>,
): void {
  for (const message of mergedMessages(merge, results, nodeId, mergers))
    thread.conversation.addMessage(message);
  const usage = { promptTokens: 0, completionTokens: 0, totalTokens: 0 };
  let failures = false;
  for (const r of results) {
    if (r.thread === thread) continue;
    const total: TokenUsage | undefined = r.thread ? r.thread.totalUsage() : r.usage;
    if (total) {
      usage.promptTokens += total.promptTokens;
      usage.completionTokens += total.completionTokens;
      usage.totalTokens += total.totalTokens;
    }
    if (Object.keys(toolFailuresOf(r)).length > 0) failures = true;
  }
  if (usage.totalTokens > 0 || usage.promptTokens > 0 || usage.completionTokens > 0)
    thread.conversation.recordUsage(usage);
  if (failures)
    thread.dispatch({
      type: 'tool-failures-counted',
      toolFailures: withToolFailures(thread.state.toolFailures, (counts) => {
        for (const r of results) {
          if (r.thread === thread) continue;
          const theirs = toolFailuresOf(r);
          for (const name of Object.keys(theirs))
            counts[name] = (counts[name] ?? 0) + theirs[name]!;
        }
      }),
    });
}
