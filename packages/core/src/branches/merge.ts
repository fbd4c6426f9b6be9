import { isToolDescription } from '@skein/conversation';
import type { LLMMessage } from '@skein/spec';
import { NodeError } from '../errors/node-error.js';
import type { MergePolicy } from '../workflow/types.js';
import type { ChildOutcome } from './child-plan.js';

/** What a merge function is given for each branch, in branch order. */
export interface MergeInput {
  readonly path: string;
  readonly threadId: string;
  readonly status: ChildOutcome['status'];
  readonly output?: unknown;
  /** Everything the branch stored after it started (its tool description messages left out). */
  readonly messages: readonly LLMMessage[];
}

/** A user merge: the messages the parent's conversation receives, in order. */
export type MergeFunction = (branches: readonly MergeInput[]) => readonly LLMMessage[];

/** What a branch added to its conversation: every stored message after its fork point. */
function newMessages(result: ChildOutcome): LLMMessage[] {
  // A branch never started stored nothing (a fan-out keeps the threads of completed branches
  // whenever its JOIN merges messages).
  if (!result.thread) return [];
  const from = result.thread.state.parent?.forkedAt ?? 0;
  return result.thread.conversation
    .getAllMessages()
    .slice(from)
    .filter((m) => !isToolDescription(m));
}

/** The branch's last assistant message that asks for no tool, if any. */
function finalMessage(messages: readonly LLMMessage[]): LLMMessage | undefined {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i]!;
    if (m.role === 'assistant' && !(m.toolCalls && m.toolCalls.length > 0)) return m;
  }
  return undefined;
}

/**
 * The messages the parent receives at a JOIN (or after a SUBWORKFLOW) under `policy`, branch by
 * branch in branch order. Whole exchanges only: `exchange` copies everything a branch stored, so a
 * tool call always comes with its results; `final-message` takes one answer without tool calls.
 */
export function mergedMessages(
  policy: MergePolicy | undefined,
  results: readonly ChildOutcome[],
  nodeId: string,
  mergers: Readonly<Record<string, MergeFunction>>,
): readonly LLMMessage[] {
  if (policy === undefined || policy === 'none') return [];
  const completed = results.filter((r) => r.status === 'COMPLETED');
  if (policy === 'final-message')
    return completed.flatMap((r) => {
      const m = finalMessage(newMessages(r));
      return m ? [m] : [];
    });
  if (policy === 'exchange') return completed.flatMap((r) => newMessages(r));
  const fn = Object.hasOwn(mergers, policy.function) ? mergers[policy.function] : undefined;
  if (!fn)
    throw NodeError.mergeFunctionInvalid(
      nodeId,
      policy.function,
      "is not among the engine's `mergers`",
    );
  const merged = fn(
    results.map((r) => ({
      path: r.plan.path,
      threadId: r.threadId,
      status: r.status,
      ...(r.output === undefined ? {} : { output: r.output }),
      messages: newMessages(r),
    })),
  );
  if (!Array.isArray(merged))
    throw NodeError.mergeFunctionInvalid(
      nodeId,
      policy.function,
      'must return an array of messages',
    );
  return merged;
}
