import type { Attributes } from '@opentelemetry/api';
import * as a from './attributes.js';

/** What every thread event carries (branch and child threads add their parent). */
export interface ThreadFacts {
  readonly threadId: string;
  readonly parentThreadId?: string;
  readonly rootThreadId?: string;
  readonly branchPath?: string;
}

/** The attributes a thread run's span starts with (the workflow is added when known). */
export function threadAttributes(facts: ThreadFacts): Attributes {
  const attributes: Attributes = {
    [a.GEN_AI_OPERATION_NAME]: 'invoke_workflow',
    [a.GEN_AI_CONVERSATION_ID]: facts.threadId,
    [a.SKEIN_THREAD_ID]: facts.threadId,
  };
  if (facts.parentThreadId !== undefined)
    attributes[a.SKEIN_THREAD_PARENT_ID] = facts.parentThreadId;
  if (facts.rootThreadId !== undefined) attributes[a.SKEIN_THREAD_ROOT_ID] = facts.rootThreadId;
  if (facts.branchPath !== undefined) attributes[a.SKEIN_THREAD_BRANCH_PATH] = facts.branchPath;
  return attributes;
}
