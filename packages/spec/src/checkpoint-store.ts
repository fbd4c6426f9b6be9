import type { LLMMessage } from './message.js';

/**
 * Where a thread is in its life. `PAUSED` waits for a caller (an answer, an approval); `WAITING`
 * waits for time or an outside event (a SLEEP, a WAIT_FOR_EVENT), which the engine wakes.
 */
export type ThreadStatus =
  | 'PENDING'
  | 'RUNNING'
  | 'PAUSED'
  | 'WAITING'
  | 'COMPLETED'
  | 'FAILED'
  | 'CANCELLED';

/**
 * What every store reads of a thread's state to index it; the rest it keeps as JSON without
 * looking. The engine's `ThreadState` has these fields and more.
 */
export interface CheckpointState {
  readonly threadId: string;
  readonly workflowId: string;
  readonly workflowVersion: string;
  readonly status: ThreadStatus;
  readonly step: number;
  readonly currentNodeId?: string;
}

/**
 * One saved point of a thread. Incremental: `conversation` holds only what was added since the
 * thread's previous checkpoint, so saving at step 10,000 costs what saving at step 10 does. The
 * state and conversation types are the engine's (`@skein/core` fixes them); a store that only
 * passes them through needs no more than this contract.
 */
export interface Checkpoint<TState extends CheckpointState = CheckpointState, TDelta = unknown> {
  readonly id: string;
  readonly threadId: string;
  /** 1, 2, 3… per thread. */
  readonly sequence: number;
  readonly parentId?: string;
  readonly createdAt: string;
  readonly state: TState;
  readonly conversation: TDelta;
  /**
   * The lease owner that writes it. When another owner holds the thread's lease, the store
   * refuses the save (`ThreadConflictError`, `THREAD_LEASED`): a process that lost its thread to another one
   * (its lease expired while it could not renew it) cannot commit a node's work a second time.
   */
  readonly owner?: string;
  /**
   * Set on the first checkpoint of a fork (sequence 1, no parent): the thread's conversation
   * continues the one `threadId` had at `checkpointId`, and `conversation.from` is where that one
   * ended. The store keeps that prefix once, shared with the thread it came from, not copied, so
   * a fork costs the same however long the conversation is; deleting or pruning that thread
   * later loses nothing of the fork. Refused with `CheckpointNotFoundError` when the checkpoint
   * is not stored, and with `CheckpointConflictError` when `from` is not where it ended or the
   * thread exists already.
   */
  readonly forkOf?: ForkOrigin;
  /**
   * When the engine must wake the thread as of this checkpoint (epoch ms): a SLEEP's time, or the
   * deadline of a wait. Stores keep the latest checkpoint's per thread, indexed, for `listWakes`.
   */
  readonly wakeAt?: number;
  /**
   * The outside event the thread waits for as of this checkpoint (a WAIT_FOR_EVENT not yet
   * claimed). Stores keep the latest checkpoint's per thread, indexed, for `listWaiting`.
   */
  readonly waitsFor?: string;
  /**
   * The highest inbox `seq` this checkpoint's conversation has taken (decision 0036): the store
   * marks the thread's posted messages up to it taken in the same commit as the save, so a
   * message is taken exactly when the conversation that shows it is stored. Absent: unchanged.
   * Refused (`INVALID_ARGUMENT`, nothing written) below the thread's mark or above its last post.
   */
  readonly inboxTaken?: number;
}

/** How a message posted to a running thread joins it (decision 0036). */
export type InboxMode = 'queue' | 'steer' | 'interrupt';

/** A message for a thread's inbox, as a sender posts it. */
export interface InboxPost {
  /** The sender's id for the message: posting the same id again posts nothing. */
  readonly id: string;
  readonly message: LLMMessage;
  readonly mode: InboxMode;
  /** ISO 8601. */
  readonly postedAt: string;
}

/** A posted message, with its place in the thread's inbox (1, 2, 3… in commit order). */
export interface PostedMessage extends InboxPost {
  readonly seq: number;
}

/** A thread whose latest checkpoint holds a wake. */
export interface StoredWake {
  readonly threadId: string;
  /** Epoch ms. */
  readonly at: number;
}

/** Where a fork's conversation comes from: a stored checkpoint of another thread. */
export interface ForkOrigin {
  readonly threadId: string;
  readonly checkpointId: string;
}

/** A lease asked for: held by `owner` until `expiresAt` (epoch ms), asked at `now` (epoch ms). */
export interface LeaseRequest {
  readonly owner: string;
  readonly expiresAt: number;
  readonly now: number;
}

export interface CheckpointInfo {
  readonly id: string;
  readonly threadId: string;
  readonly sequence: number;
  readonly createdAt: string;
  readonly status: ThreadStatus;
  readonly step: number;
  readonly currentNodeId?: string;
  /** Stored messages of the conversation at this checkpoint. */
  readonly messageCount: number;
}

export interface ThreadInfo {
  readonly threadId: string;
  readonly workflowId: string;
  readonly workflowVersion: string;
  readonly status: ThreadStatus;
  readonly step: number;
  readonly checkpoints: number;
  readonly lastCheckpointId: string;
  readonly updatedAt: string;
}

/** A stored checkpoint with its state, as `listStates` reads it: no conversation. */
export interface StoredState<TState extends CheckpointState = CheckpointState> {
  readonly checkpoint: CheckpointInfo;
  readonly state: TState;
}

/** A thread as loaded from a store: the state of one checkpoint and the whole conversation up to it. */
export interface StoredThread<
  TState extends CheckpointState = CheckpointState,
  TSnapshot = unknown,
> {
  readonly checkpoint: CheckpointInfo;
  readonly state: TState;
  readonly conversation: TSnapshot;
}

/**
 * Where checkpoints live. Implementations must keep every message once (never a copy of the
 * history per checkpoint) and reject a checkpoint whose conversation delta does not continue the
 * thread's stored conversation (`CheckpointConflictError`), so nothing is ever silently lost.
 */
export interface CheckpointStore<
  TState extends CheckpointState = CheckpointState,
  TDelta = unknown,
  TSnapshot = unknown,
> {
  save(checkpoint: Checkpoint<TState, TDelta>): Promise<void>;
  /** The latest checkpoint of a thread, or the one named; undefined when there is none. */
  load(
    threadId: string,
    checkpointId?: string,
  ): Promise<StoredThread<TState, TSnapshot> | undefined>;
  list(threadId: string): Promise<CheckpointInfo[]>;
  /**
   * The thread's stored checkpoints with their states, oldest first, and none of the conversation:
   * one read where loading each checkpoint would read its conversation each time (history).
   */
  listStates(threadId: string): Promise<StoredState<TState>[]>;
  listThreads(): Promise<ThreadInfo[]>;
  /**
   * Every thread whose latest checkpoint holds a wake (`Checkpoint.wakeAt`), soonest first: the
   * store is the record of wakes, and an engine recovering reads them here, not thread by thread.
   */
  listWakes(): Promise<StoredWake[]>;
  /**
   * The ids of the threads whose latest checkpoint waits for outside event `event`
   * (`Checkpoint.waitsFor`), oldest thread first: a signal reads them here, not thread by thread.
   */
  listWaiting(event: string): Promise<string[]>;
  /** Deletes a thread with its checkpoints and messages; false when it did not exist. */
  delete(threadId: string): Promise<boolean>;
  /** Deletes all but the newest `keepLast` checkpoints of a thread (messages stay). */
  prune(threadId: string, options: { keepLast: number }): Promise<number>;
  /**
   * Takes or renews the lease of a thread (stored or not yet): true when it was free, expired at
   * `now`, or already `owner`'s; false when another owner holds it. Atomic across every process
   * sharing the store, so of two processes asking at once exactly one gets it. A lease says that
   * a live process runs the thread; `SkeinEngine.recover` takes only threads whose lease expired.
   */
  acquireLease(threadId: string, lease: LeaseRequest): Promise<boolean>;
  /** Gives up `owner`'s lease of a thread; does nothing when another owner holds it. */
  releaseLease(threadId: string, owner: string): Promise<void>;
  /**
   * The bytes of an attachment one of thread `threadId`'s messages refers to by `ref.digest`
   * (`AttachmentRef`), or undefined when none of its messages (nor, for a fork, those it
   * continues) does: a caller who may read a thread reaches only that thread's attachments. A
   * store that keeps media parts inline leaves it out.
   */
  readAttachment?(threadId: string, digest: string): Promise<Uint8Array | undefined>;
  /**
   * Posts a message to a stored thread's inbox (decision 0036), durably; resolves with its `seq`,
   * or with the `seq` it already has when a post of the same `id` was stored (`duplicate`).
   * `CheckpointNotFoundError` for a thread not stored. Optional while stores adopt it.
   */
  postMessage?(threadId: string, post: InboxPost): Promise<{ seq: number; duplicate: boolean }>;
  /** The thread's posted messages not yet taken by a checkpoint (`inboxTaken`), by `seq`. */
  pendingMessages?(threadId: string): Promise<PostedMessage[]>;
  close?(): Promise<void> | void;
}
