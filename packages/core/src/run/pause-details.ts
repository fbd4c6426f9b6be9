import type { ApprovalRequest } from '../events/event-map.js';
import type { PendingInteraction } from '../thread/thread-state.js';

/** The calls of a tool-approval pause that wait for a decision, in the model's order. */
export function approvalRequests(pending: PendingInteraction): ApprovalRequest[] | undefined {
  if (pending.kind !== 'tool-approval') return undefined;
  const awaiting = new Set(pending.awaiting);
  return pending.calls
    .filter((call) => awaiting.has(call.id))
    .map((call) => ({ toolCallId: call.id, name: call.name, arguments: call.arguments }));
}

/** What `thread:paused` says about a pause: why, and what answers it. */
export function pauseDetails(pending: PendingInteraction) {
  switch (pending.kind) {
    case 'user-input':
      return {
        reason: 'user-input' as const,
        ...(pending.prompt === undefined ? {} : { prompt: pending.prompt }),
        ...(pending.input === undefined ? {} : { input: pending.input }),
        ...(pending.deadline === undefined ? {} : { deadline: pending.deadline }),
      };
    case 'tool-approval':
      return { reason: 'tool-approval' as const, approvals: approvalRequests(pending)! };
    case 'branches':
      return { reason: 'branches' as const, branches: pending.waiting.map((w) => w.path) };
    case 'sleep':
      return { reason: 'sleep' as const, wakeAt: pending.wakeAt };
    case 'event':
      return {
        reason: 'event' as const,
        event: pending.event,
        ...(pending.deadline === undefined ? {} : { deadline: pending.deadline }),
      };
  }
}
