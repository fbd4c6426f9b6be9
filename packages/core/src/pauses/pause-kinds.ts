import { branchesPause } from './branches.js';
import { eventPause } from './event.js';
import type { PauseKind, PauseKinds } from './pause-kind.js';
import type { PauseKindName, PendingInteraction } from './pending-interaction.js';
import { sleepPause } from './sleep.js';
import { toolApprovalPause } from './tool-approval.js';
import { userInputPause } from './user-input.js';

/**
 * Every kind of pause, by name: what the rest of core asks instead of branching on
 * `pending.kind`. Adding a kind is a file beside this one and its line here (see
 * docs/architecture.md, "Adding a kind of pause").
 */
export const PAUSE_KINDS: PauseKinds = Object.freeze({
  'user-input': userInputPause,
  'tool-approval': toolApprovalPause,
  branches: branchesPause,
  sleep: sleepPause,
  event: eventPause,
});

/** The entry of `pending`'s kind. */
export function pauseKindOf(pending: PendingInteraction): PauseKind<PauseKindName> {
  return PAUSE_KINDS[pending.kind] as PauseKind<PauseKindName>;
}

/** Whether `kind` names a kind of pause this engine knows (a loaded state may name another). */
export function isPauseKindName(kind: unknown): kind is PauseKindName {
  return typeof kind === 'string' && Object.hasOwn(PAUSE_KINDS, kind);
}
