import { CheckpointNotFoundError, checkThreadId } from '@skein/spec';
import type { ThreadEventListener } from '../events/thread-event.js';
import type { HistoryEntry, HistoryOptions } from '../history/thread-history.js';
import type { ExecuteOptions, StartedRun } from '../run/thread-executor.js';
import type { BuildThreadOptions, FromCheckpointOptions } from '../thread/thread-builder.js';
import type { ThreadContext } from '../thread/thread-context.js';
import type { SentMessage } from './chat-turn.js';
import type { SendResult } from './posted-result.js';
import type {
  FollowOptions,
  ForkOptions,
  RunOutcome,
  SendOptions,
  SkeinEngine,
} from './skein-engine.js';

/**
 * What a view needs of its engine that the engine does not offer everyone: the calls that check
 * whose thread it is where they load it.
 * @internal
 */
export interface PrincipalCalls {
  send(
    threadId: string,
    message: SentMessage,
    options: SendOptions,
  ): Promise<RunOutcome<SendResult>>;
  fork(threadId: string, options: ForkOptions): Promise<RunOutcome>;
  history(threadId: string, options: HistoryOptions | undefined): Promise<HistoryEntry[]>;
}

/** Options of a principal's `createThread` and `run`: the principal is the view's. */
export type PrincipalBuildOptions = Omit<BuildThreadOptions, 'principal'>;

/**
 * The engine as one principal sees it (`engine.forPrincipal(principal)`): its methods are the
 * engine's, but a thread built here belongs to `principal`, and a thread of another principal —
 * or of none, built before there were principals — is exactly an unknown thread: `getThread`
 * resolves to undefined, every other method rejects with `CheckpointNotFoundError` (404 over
 * HTTP), never saying it exists. A thread passed as an object is checked the same way.
 */
export class PrincipalEngine {
  /** Whose view this is. */
  readonly principal: string;
  readonly #engine: SkeinEngine;
  readonly #calls: PrincipalCalls;

  /** @internal Made by `engine.forPrincipal(principal)`. */
  constructor(engine: SkeinEngine, principal: string, calls: PrincipalCalls) {
    this.#engine = engine;
    this.principal = principal;
    this.#calls = calls;
  }

  /** Whether `thread` is this principal's. */
  owns(thread: ThreadContext): boolean {
    return thread.state.principal === this.principal;
  }

  /** `thread`, if it is this principal's; `CheckpointNotFoundError` otherwise. */
  #own(thread: ThreadContext): ThreadContext {
    if (!this.owns(thread)) throw new CheckpointNotFoundError(thread.threadId);
    return thread;
  }

  async #load(thread: ThreadContext | string): Promise<ThreadContext> {
    return typeof thread === 'string' ? this.loadThread(thread) : this.#own(thread);
  }

  /** A new thread of `workflowId`, this principal's (see `SkeinEngine.createThread`). */
  createThread(workflowId: string, options: PrincipalBuildOptions = {}): ThreadContext {
    return this.#engine.createThread(workflowId, { ...options, principal: this.principal });
  }

  /**
   * Runs a thread of this principal's (see `SkeinEngine.run`): a new one of `workflowId`, or
   * `thread` (another principal's is `CHECKPOINT_NOT_FOUND`).
   */
  run(
    workflowId: string,
    options?: PrincipalBuildOptions & ExecuteOptions & FollowOptions,
  ): Promise<RunOutcome>;
  /** Runs `thread`, which must be this principal's (see `SkeinEngine.run`). */
  run(thread: ThreadContext, options?: ExecuteOptions & FollowOptions): Promise<RunOutcome>;
  async run(
    target: string | ThreadContext,
    options: PrincipalBuildOptions & ExecuteOptions & FollowOptions = {},
  ): Promise<RunOutcome> {
    return typeof target === 'string'
      ? this.#engine.run(target, { ...options, principal: this.principal })
      : this.#engine.run(this.#own(target), options);
  }

  /**
   * Sends a user message (see `SkeinEngine.send`): a thread that is not stored is made for this
   * principal; one of another principal is `CHECKPOINT_NOT_FOUND`, and `onEvent` hears nothing
   * of it (it hears the thread from the turn that takes the message, once the thread is found to
   * be this principal's).
   */
  send(
    threadId: string,
    message: SentMessage,
    options: SendOptions = {},
  ): Promise<RunOutcome<SendResult>> {
    return this.#calls.send(threadId, message, options);
  }

  /** The stored thread, if it is this principal's; undefined otherwise. */
  async getThread(threadId: string): Promise<ThreadContext | undefined> {
    const thread = await this.#engine.getThread(threadId);
    return thread && this.owns(thread) ? thread : undefined;
  }

  /**
   * The bytes of an attachment a message of `threadId` refers to (see
   * `SkeinEngine.readAttachment`), when the thread is this principal's; undefined otherwise.
   */
  async readAttachment(threadId: string, digest: string): Promise<Uint8Array | undefined> {
    return (await this.getThread(threadId))
      ? this.#engine.readAttachment(threadId, digest)
      : undefined;
  }

  /**
   * Rebuilds a stored thread of this principal's (its latest checkpoint, or the one named), or
   * rejects with `CheckpointNotFoundError`. With `forkAs`, the new thread is this principal's too.
   */
  async loadThread(
    threadId: string,
    checkpointId?: string,
    options?: FromCheckpointOptions,
  ): Promise<ThreadContext> {
    const thread = await this.#engine.loadThread(threadId, checkpointId, options);
    if (!this.owns(thread)) throw new CheckpointNotFoundError(threadId, checkpointId);
    return thread;
  }

  /** Continues a PAUSED thread of this principal's, given or by id (see `SkeinEngine.resume`). */
  async resume(
    thread: ThreadContext | string,
    input: unknown,
    options?: ExecuteOptions & FollowOptions,
  ): Promise<RunOutcome> {
    return this.#engine.resume(await this.#load(thread), input, options);
  }

  /** Claims the pause of a thread of this principal's (see `SkeinEngine.claimResume`). */
  async claimResume(
    thread: ThreadContext | string,
    input: unknown,
    options?: ExecuteOptions & FollowOptions,
  ): Promise<StartedRun> {
    return this.#engine.claimResume(await this.#load(thread), input, options);
  }

  /** Forks a thread of this principal's; the fork is this principal's (see `SkeinEngine.fork`). */
  fork(threadId: string, options: ForkOptions = {}): Promise<RunOutcome> {
    return this.#calls.fork(threadId, options);
  }

  /** The stored checkpoints of a thread of this principal's (see `SkeinEngine.history`). */
  history(threadId: string, options?: HistoryOptions): Promise<HistoryEntry[]> {
    return this.#calls.history(threadId, options);
  }

  /**
   * Calls `listener` with every event of a stored thread of this principal's (see
   * `SkeinEngine.subscribe`); resolves to the function that stops it once the thread is found
   * to be the principal's, and rejects with `CheckpointNotFoundError` for any other thread (one
   * not stored yet included: `send`'s `onEvent` follows a thread from its first turn).
   */
  async subscribe(threadId: string, listener: ThreadEventListener): Promise<() => void> {
    const stored = await this.#engine.store?.load(checkThreadId(threadId));
    if (stored?.state.principal !== this.principal) throw new CheckpointNotFoundError(threadId);
    return this.#engine.subscribe(threadId, listener);
  }

  /** A webhook token for a thread of this principal's (see `SkeinEngine.createWebhook`). */
  async createWebhook(threadId: string): Promise<string> {
    await this.loadThread(threadId);
    return this.#engine.createWebhook(threadId);
  }
}
