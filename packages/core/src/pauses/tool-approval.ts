import type { ApprovalRequest } from '../events/event-map.js';
import {
  type Fail,
  isCount,
  isRecord,
  requireString,
  requireStrings,
} from '../util/stored-fields.js';
import { rejectedCalls } from './approval-decisions.js';
import type { BranchWaitKind, PauseKind } from './pause-kind.js';
import type { PauseOf } from './pending-interaction.js';

/** The calls of a tool-approval pause that wait for a decision, in the model's order. */
function approvalRequests(pending: PauseOf<'tool-approval'>): ApprovalRequest[] {
  const awaiting = new Set(pending.awaiting);
  return pending.calls
    .filter((call) => awaiting.has(call.id))
    .map((call) => ({ toolCallId: call.id, name: call.name, arguments: call.arguments }));
}

/** A branch whose LLM node waits for approvals: an answer decides exactly its calls. */
export const toolApprovalBranchWait = Object.freeze<BranchWaitKind>({
  endedBy: 'caller',
  checkAnswer: (wait, input) => {
    if (wait.awaiting) rejectedCalls(wait.threadId, wait.awaiting, input);
  },
  wake: () => undefined,
  wakeInput: () => null,
  signal: () => undefined,
  waitingFor: () => 'waits for tool approvals',
  checkStored: () => undefined,
});

/**
 * An LLM node's tool round waiting for approvals: every call of the round, the ids awaiting a
 * decision, and the calls a guardrail refused. The round runs once a caller has decided each.
 */
export const toolApprovalPause = Object.freeze<PauseKind<'tool-approval'>>({
  kind: 'tool-approval',
  endedBy: () => 'caller',
  checkAnswer: (threadId, pending, input) => {
    rejectedCalls(threadId, pending.awaiting, input);
  },
  refuseCaller: () => undefined,
  wake: () => undefined,
  wakeInput: () => null,
  signal: () => undefined,
  waitingFor: () => 'it waits for tool approvals: answer them with resume(thread, { approvals })',
  details: (pending) => ({ reason: 'tool-approval', approvals: approvalRequests(pending) }),
  branchWaits: (pending, at) => [{ ...at, reason: 'tool-approval', awaiting: pending.awaiting }],
  takesMessage: false,
  // The calls are answered as not approved; the resumed node meets the interrupt before its
  // next model call, so its tool round ends whole.
  interrupt: (pending, reason) => ({
    answer: {
      approvals: Object.fromEntries(
        pending.awaiting.map((id) => [id, { approved: false, reason }]),
      ),
    },
  }),
  upgrade: () => ({ nodeType: 'LLM' }),
  checkStored: (pending: Record<string, unknown>, fail: Fail) => {
    if (!isCount(pending.round)) fail('state.pending.round', 'must be a whole number >= 0');
    const calls = pending.calls;
    if (!Array.isArray(calls)) fail('state.pending.calls', 'must be an array of tool calls');
    calls.forEach((call: unknown, i) => {
      if (!isRecord(call)) fail(`state.pending.calls[${i}]`, 'must be a tool call object');
      for (const key of ['id', 'name', 'arguments'])
        requireString(call[key], `state.pending.calls[${i}].${key}`, fail);
    });
    requireStrings(pending.awaiting, 'state.pending.awaiting', fail);
    if (pending.refused !== undefined) {
      if (!isRecord(pending.refused))
        fail('state.pending.refused', 'must be an object when present');
      for (const [id, text] of Object.entries(pending.refused))
        requireString(text, `state.pending.refused[${JSON.stringify(id)}]`, fail);
    }
  },
  branch: toolApprovalBranchWait,
});
