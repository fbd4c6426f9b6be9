import type { TokenUsage } from '@skein/spec';
import type { ThreadContext } from '../thread/thread-context.js';
import type { ThreadStatus } from '../thread/thread-state.js';
import type { BranchConversation } from '../workflow/types.js';

/** One child thread a node starts: a branch of the same workflow, or another workflow. */
export interface ChildPlan {
  /** Derived from the parent, node, step and branch, so a re-run finds the same child. */
  readonly threadId: string;
  /** Its path from the parent: `node/name`, `node[3]`, `node`. */
  readonly path: string;
  readonly workflowId: string;
  readonly version?: string;
  /** A branch starts here and ends on reaching `stopAt` (its JOIN). */
  readonly startAt?: string;
  readonly stopAt?: string;
  readonly variables: Readonly<Record<string, unknown>>;
  /** A subworkflow's variables go through its workflow's schema; a branch's are the parent's. */
  readonly checkVariables: boolean;
  /** The child's first user message. */
  readonly message?: string;
  readonly conversation: BranchConversation;
}

/**
 * How a child stands once its node has run it (or found it done, or never started it). A fan-out
 * lets go of the thread of a branch that completed when its JOIN needs nothing more from it (its
 * output, usage and tool failures are kept here): thousands of finished branches then cost the
 * parent a few fields each, not a thread and a conversation each.
 */
export interface ChildOutcome {
  readonly plan: ChildPlan;
  readonly threadId: string;
  readonly status: Exclude<ThreadStatus, 'PENDING' | 'RUNNING'>;
  readonly output?: unknown;
  readonly error?: { readonly code: string; readonly message: string };
  /** The child thread; absent for a branch never started or one let go. */
  readonly thread?: ThreadContext;
  /** What a let-go branch spent and which of its tools failed (read from `thread` otherwise). */
  readonly usage?: TokenUsage;
  readonly toolFailures?: Readonly<Record<string, number>>;
}

/** How a child thread stands after its node ran it (or found it already done). */
export interface ChildResult extends ChildOutcome {
  readonly thread: ThreadContext;
}

/** The id of a child thread: unique per parent, node, step and branch, stable across re-runs. */
export function childThreadId(
  parentThreadId: string,
  nodeId: string,
  step: number,
  key: string,
): string {
  // Joined rather than concatenated: one flat string, not a tree of concatenations that a fan-out
  // would keep (and flatten again as a map key) for each of thousands of branches.
  return [parentThreadId, '/', nodeId, '@', step, key].join('');
}
