import { eventBranchWait } from './event.js';
import type { BranchWaitKinds } from './pause-kind.js';
import { sleepBranchWait } from './sleep.js';
import { toolApprovalBranchWait } from './tool-approval.js';
import { userInputBranchWait } from './user-input.js';

/** Each reason a branch waits with, and what it means: a missing reason is a type error. */
export const BRANCH_WAIT_KINDS: BranchWaitKinds = Object.freeze({
  'user-input': userInputBranchWait,
  'tool-approval': toolApprovalBranchWait,
  sleep: sleepBranchWait,
  event: eventBranchWait,
});

/** Whether a branch waits with a reason this engine knows (a loaded one may not). */
export function isBranchWaitReason(reason: unknown): reason is keyof BranchWaitKinds {
  return typeof reason === 'string' && Object.hasOwn(BRANCH_WAIT_KINDS, reason);
}
