import { requireString, requireTime } from '../util/stored-fields.js';
import type { BranchWaitKind, PauseKind } from './pause-kind.js';

/** A branch that sleeps: the engine wakes it with its `wakeAt`. */
export const sleepBranchWait = Object.freeze<BranchWaitKind>({
  endedBy: 'engine',
  checkAnswer: () => undefined,
  wake: (wait) => (wait.wakeAt ? { at: wait.wakeAt, timedOut: false } : undefined),
  wakeInput: (wait) => wait.wakeAt,
  signal: () => undefined,
  waitingFor: (wait) => `sleeps until ${wait.wakeAt}`,
  checkStored: (wait, at, fail) => requireString(wait.wakeAt, `${at}.wakeAt`, fail),
});

/** A SLEEP node: WAITING until `wakeAt`, which the engine wakes it at (its output). */
export const sleepPause = Object.freeze<PauseKind<'sleep'>>({
  kind: 'sleep',
  endedBy: () => 'engine',
  checkAnswer: () => undefined,
  refuseCaller: () => undefined,
  wake: (pending) => ({ at: pending.wakeAt, timedOut: false }),
  wakeInput: (pending) => pending.wakeAt,
  signal: () => undefined,
  waitingFor: (pending) =>
    `it sleeps until ${pending.wakeAt}; the engine wakes it (recover() or wakeDue())`,
  details: (pending) => ({ reason: 'sleep', wakeAt: pending.wakeAt }),
  branchWaits: (pending, at) => [{ ...at, reason: 'sleep', wakeAt: pending.wakeAt }],
  takesMessage: false,
  interrupt: () => 'end',
  upgrade: () => ({ nodeType: 'SLEEP' }),
  checkStored: (pending, fail) => requireTime(pending.wakeAt, 'state.pending.wakeAt', fail),
  branch: sleepBranchWait,
});
