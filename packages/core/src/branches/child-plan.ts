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

/** How a child thread stands after its node ran it (or found it already done). */
export interface ChildResult {
  readonly plan: ChildPlan;
  readonly thread: ThreadContext;
  readonly status: Exclude<ThreadStatus, 'PENDING' | 'RUNNING'>;
  readonly output?: unknown;
  readonly error?: { readonly code: string; readonly message: string };
}

/** The id of a child thread: unique per parent, node, step and branch, stable across re-runs. */
export function childThreadId(
  parentThreadId: string,
  nodeId: string,
  step: number,
  key: string,
): string {
  return `${parentThreadId}/${nodeId}@${step}${key}`;
}
