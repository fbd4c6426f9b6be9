import { isRecord, requireString, requireTime } from '../util/stored-fields.js';
import type { BranchWaitKind, PauseKind } from './pause-kind.js';
import { pauseOfKind } from './pause-of-kind.js';
import type { PauseOf, PendingInteraction, PendingWebhook } from './pending-interaction.js';

/** A branch waiting for an outside event: a signal finds it by `event`, through its top thread. */
export const eventBranchWait = Object.freeze<BranchWaitKind>({
  endedBy: 'engine',
  checkAnswer: () => undefined,
  wake: (wait) => (wait.deadline ? { at: wait.deadline, timedOut: true } : undefined),
  wakeInput: () => null,
  signal: (wait) => wait.event,
  waitingFor: (wait) => `waits for event "${wait.event}"`,
  checkStored: (wait, at, fail) => requireString(wait.event, `${at}.event`, fail),
});

/**
 * A WAIT_FOR_EVENT node: WAITING until `engine.signal(event, …)` or its webhook, or until its
 * `deadline` (the engine times it out).
 */
export const eventPause = Object.freeze<PauseKind<'event'>>({
  kind: 'event',
  endedBy: () => 'engine',
  checkAnswer: () => undefined,
  refuseCaller: () => undefined,
  wake: (pending) => (pending.deadline ? { at: pending.deadline, timedOut: true } : undefined),
  wakeInput: () => null,
  signal: (pending) => pending.event,
  waitingFor: (pending) =>
    `it waits for event "${pending.event}"; deliver it with signal("${pending.event}", payload) or its webhook`,
  details: (pending) => ({
    reason: 'event',
    event: pending.event,
    ...(pending.deadline === undefined ? {} : { deadline: pending.deadline }),
  }),
  branchWaits: (pending, at) => [
    {
      ...at,
      reason: 'event',
      event: pending.event,
      ...(pending.deadline === undefined ? {} : { deadline: pending.deadline }),
    },
  ],
  takesMessage: false,
  interrupt: () => 'end',
  upgrade: () => ({ nodeType: 'WAIT_FOR_EVENT' }),
  checkStored: (pending, fail) => {
    requireString(pending.event, 'state.pending.event', fail);
    requireTime(pending.deadline, 'state.pending.deadline', fail, true);
    const hook = pending.webhook;
    if (hook !== undefined && (!isRecord(hook) || typeof hook.tokenHash !== 'string'))
      fail('state.pending.webhook', 'must be { tokenHash, createdAt } when present');
  },
  branch: eventBranchWait,
});

/** The event wait `pending` is, unclaimed, when it can take a webhook; else undefined. */
export function openEventWait(
  pending: PendingInteraction | undefined,
): PauseOf<'event'> | undefined {
  const wait = pauseOfKind(pending, 'event');
  return wait && !wait.answer ? wait : undefined;
}

/** `pending` (an unclaimed event wait) with `webhook` stored; undefined for any other pause. */
export function withWebhook(
  pending: PendingInteraction | undefined,
  webhook: PendingWebhook,
): PauseOf<'event'> | undefined {
  const wait = openEventWait(pending);
  return wait && Object.freeze({ ...wait, webhook: Object.freeze({ ...webhook }) });
}
