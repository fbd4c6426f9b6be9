import type { ThreadPausedEvent } from '../events/event-map.js';
import type { Fail } from '../util/stored-fields.js';
import type { NodeType } from '../workflow/types.js';
import type {
  BranchWait,
  BranchWaitReason,
  PauseKindName,
  PauseOf,
} from './pending-interaction.js';

/** Who ends a pause: a caller's answer (the thread is PAUSED) or the engine (it is WAITING). */
export type EndedBy = 'caller' | 'engine';

/** When the engine ends a pause by itself: a time it wakes at, or a deadline it times out at. */
export interface PauseWake {
  /** ISO time, as stored. */
  readonly at: string;
  /** A deadline (the wait times out) rather than the time the pause asked to wake at. */
  readonly timedOut: boolean;
  /** The waiting branch it wakes (its path), when the thread waits on branches. */
  readonly branch?: string;
}

/** What `thread:paused` says about a pause: why, and what answers it. */
type PauseDetails = Omit<
  ThreadPausedEvent,
  'threadId' | 'nodeId' | 'parentThreadId' | 'branchPath' | 'rootThreadId'
>;

/** How an `ifBusy: 'interrupt'` message ends a pause: with an answer, by ending it, or not at all. */
type InterruptEnd = { readonly answer: unknown } | 'end' | undefined;

/** What an upgrade needs of a pause: the node type it waits at, or why it cannot move. */
type PauseUpgrade = { readonly nodeType: NodeType } | { readonly refused: string };

/**
 * A kind of pause as a branch's wait (`BranchWait` with this `reason`): the same questions as
 * `PauseKind`, asked of the summary a parent keeps of its waiting branch.
 */
export interface BranchWaitKind {
  readonly endedBy: EndedBy;
  /** Throws `RESUME_INPUT_INVALID` unless `input` answers the branch (checked before the claim). */
  checkAnswer(wait: BranchWait, input: unknown): void;
  wake(wait: BranchWait): Omit<PauseWake, 'branch'> | undefined;
  /** What the engine resumes the branch with at its (not timed-out) wake. */
  wakeInput(wait: BranchWait): unknown;
  /** The outside event the branch waits for, if it does. */
  signal(wait: BranchWait): string | undefined;
  /** What it waits for, in words (after `branch "<path>"`). */
  waitingFor(wait: BranchWait): string;
  /** The fields this reason requires of a loaded branch wait (`at` names it). */
  checkStored(wait: Record<string, unknown>, at: string, fail: Fail): void;
}

/**
 * Everything the engine asks of one kind of pause. The generic machinery — the reducer, the run
 * loop's checks, the waker, checkpoints, chat turns, upgrades, events — calls these rather than
 * branching on `pending.kind`; the node that pauses builds the pending and reads its answer.
 */
export interface PauseKind<K extends PauseKindName> {
  readonly kind: K;
  /** Who ends it (decides PAUSED or WAITING). */
  endedBy(pending: PauseOf<K>): EndedBy;
  /**
   * Throws `RESUME_INPUT_INVALID` unless a caller's `input` answers it. Called before the pause
   * is claimed, so a wrong answer changes nothing.
   */
  checkAnswer(threadId: string, pending: PauseOf<K>, input: unknown): void;
  /** Why a caller may not answer it with `input` at all (it is the engine's to end), if so. */
  refuseCaller(pending: PauseOf<K>, input: unknown): string | undefined;
  /** When the engine ends it by itself, unclaimed, if ever. */
  wake(pending: PauseOf<K>): PauseWake | undefined;
  /** What the engine resumes it with at `wake` when that is not a timeout. */
  wakeInput(pending: PauseOf<K>, wake: Pick<PauseWake, 'timedOut' | 'branch'>): unknown;
  /** The outside event it waits for (the store indexes it for `signal`), if it does. */
  signal(pending: PauseOf<K>): string | undefined;
  /** What it waits for and what ends it, in words (errors, a busy chat). */
  waitingFor(pending: PauseOf<K>): string;
  /** What `thread:paused` says about it. */
  details(pending: PauseOf<K>): PauseDetails;
  /** How a branch paused with it shows in its parent's `branches` pause. */
  branchWaits(pending: PauseOf<K>, at: Pick<BranchWait, 'path' | 'threadId'>): BranchWait[];
  /** A chat message answers it (the first message of a send is taken as the answer). */
  readonly takesMessage: boolean;
  /** How a message sent with `ifBusy: 'interrupt'` ends it. */
  interrupt(pending: PauseOf<K>, reason: string): InterruptEnd;
  /** What a version upgrade checks of it. */
  upgrade(pending: PauseOf<K>): PauseUpgrade;
  /** Checks a loaded pause's own fields (`nodeId` and `kind` are checked by the caller). */
  checkStored(pending: Record<string, unknown>, fail: Fail): void;
  /** As a branch's wait; absent for `branches`, whose own waits are flattened into the parent's. */
  readonly branch?: BranchWaitKind;
}

/** One entry per kind of pause: a missing kind is a type error. */
export type PauseKinds = { readonly [K in PauseKindName]: PauseKind<K> };

/** One entry per reason a branch waits with. */
export type BranchWaitKinds = { readonly [R in BranchWaitReason]: BranchWaitKind };
