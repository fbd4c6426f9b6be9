import { randomUUID } from 'node:crypto';
import {
  CheckpointNotFoundError,
  type InboxPost,
  InvalidArgumentError,
  type LLMMessage,
  type PostedMessage,
  SkeinError,
} from '@skein/spec';
import { ThreadError } from '../errors/thread-error.js';
import { pauseKindOf } from '../pauses/pause-kinds.js';
import { inboxMessage } from '../run/run-inbox.js';
import type { ExecuteOptions, StartedRun, ThreadResult } from '../run/thread-executor.js';
import { resultOf } from '../run/thread-result.js';
import type { BuildThreadOptions } from '../thread/thread-builder.js';
import type { ThreadContext } from '../thread/thread-context.js';
import { busyReason, endsByInterrupt, nextTurn, takesMessage } from './chat-turn.js';
import { postedResult, type SendResult } from './posted-result.js';

/** What a message sent to a busy thread does (decision 0036). */
export type IfBusy = 'queue' | 'steer' | 'interrupt' | 'reject';

/** How often a post to a thread another process is making is tried (about 2.5 s in all). */
const NEW_THREAD_TRIES = 32;

/**
 * How long a read of the inbox waits after its turn found the thread taken by another process
 * (`tries` such reads in a row): without a wait, a thread leased elsewhere but not yet stored
 * RUNNING is asked for again and again, and the loop starves the process (millions of tries a
 * second on an in-memory store, a blocked event loop on a synchronous SQLite driver).
 */
function takenRetryDelay(tries: number): number {
  return Math.min(5 * 2 ** (tries - 1), 250);
}

const IF_BUSY: ReadonlySet<unknown> = new Set(['queue', 'steer', 'interrupt', 'reject']);

/** The store's inbox, as the turns use it. */
interface TurnInbox {
  postMessage(threadId: string, post: InboxPost): Promise<{ seq: number; duplicate: boolean }>;
  pendingMessages(threadId: string): Promise<PostedMessage[]>;
}

/** What the turns need from the engine. */
export interface TurnHost {
  /** The stored thread, or undefined when there is none. */
  load(threadId: string): Promise<ThreadContext | undefined>;
  create(workflowId: string, options: BuildThreadOptions): ThreadContext;
  start(
    thread: ThreadContext,
    options: ExecuteOptions,
    resume?: { readonly input: unknown },
  ): Promise<StartedRun>;
  /** The store's inbox; without one a busy thread refuses messages (`THREAD_STATE`). */
  readonly inbox: TurnInbox | undefined;
}

/** Options of one send that the turn taking it uses. */
export interface TurnOptions extends ExecuteOptions {
  /** The workflow a new thread runs (default `chat`). */
  readonly workflowId?: string;
  /** Variables of a new thread. */
  readonly variables?: Readonly<Record<string, unknown>>;
  /**
   * Clear the conversation before this message (a new topic): earlier turns stay stored but
   * leave the model's view; the system prompt and the tool description stay. Only for a message
   * that starts its turn: refused (`INVALID_ARGUMENT`) when it would wait in the inbox.
   */
  readonly clear?: boolean;
  /**
   * When the thread is busy (a turn runs, here or in another process; it waits on time or an
   * event; it waits for tool approvals): `queue` (default) takes the message in the turn after,
   * in order; `steer` adds it to the running turn before its next model call; `interrupt` ends
   * the running turn at its next safe point and starts one with the message; `reject` refuses
   * it with `THREAD_BUSY`. A thread waiting for a person's answer takes the message as the answer.
   */
  readonly ifBusy?: IfBusy;
  /**
   * The sender's id for the message (1 to 256 characters): a send retried with the same id
   * stores the message once. Default: a random id.
   */
  readonly messageId?: string;
}

export interface Turn {
  readonly thread: ThreadContext;
  readonly result: SendResult;
}

/**
 * A send of a principal's view: a new thread is built for `principal`, a stored thread of
 * another (or of none) is `CHECKPOINT_NOT_FOUND`, and `onTaken` is called once the thread is
 * known to be the principal's (the send starts hearing events then).
 */
export interface TurnScope {
  readonly principal: string;
  readonly onTaken?: () => void;
}

/** A message this engine posted, waiting for the turn that takes it. */
interface Waiter {
  readonly seq: number;
  readonly messageId: string;
  readonly options: TurnOptions;
  readonly resolve: (turn: Turn) => void;
  readonly reject: (error: unknown) => void;
}

function checkOptions(options: TurnOptions): void {
  if (options.ifBusy !== undefined && !IF_BUSY.has(options.ifBusy))
    throw new InvalidArgumentError(
      'options.ifBusy',
      `options.ifBusy must be "queue", "steer", "interrupt" or "reject", got ${JSON.stringify(options.ifBusy)}`,
    );
  const id = options.messageId;
  if (id !== undefined && (typeof id !== 'string' || id.length === 0 || id.length > 256))
    throw new InvalidArgumentError(
      'options.messageId',
      'options.messageId must be a string of 1 to 256 characters',
    );
}

/** What a turn's run is started with, of a send's options. */
function runOptions(options: TurnOptions | undefined): ExecuteOptions {
  return {
    ...(options?.signal === undefined ? {} : { signal: options.signal }),
    ...(options?.maxSteps === undefined ? {} : { maxSteps: options.maxSteps }),
  };
}

function taking(error: unknown): boolean {
  return (
    SkeinError.hasCode(error, 'THREAD_LEASED') || SkeinError.hasCode(error, 'CHECKPOINT_CONFLICT')
  );
}

/**
 * The turns of the threads this engine runs, and the messages sent to them (decision 0036). A
 * message for a thread nobody runs starts its turn at once. One for a busy thread is posted to
 * the thread's inbox in the store, durably and in order; whoever runs the thread takes it
 * (`steer` before the next model call, `interrupt` at the next safe point, `queue` when the turn
 * ends), so a message sent from any process is taken exactly once. A send this engine posted
 * resolves with the turn that took its message when that turn ran here, or with the message
 * posted (`PostedResult`) when another process runs the thread or it waits.
 */
export class ThreadTurns {
  readonly #host: TurnHost;
  /** Runs and sends in progress per thread; a thread is busy here while it has any. */
  readonly #busy = new Map<string, number>();
  /** Threads whose inbox is to be read once they are no longer busy here. */
  readonly #due = new Set<string>();
  /** Reads in a row whose turn found the thread taken elsewhere, per thread (`takenRetryDelay`). */
  readonly #taken = new Map<string, number>();
  readonly #waiters = new Map<string, Waiter[]>();
  /** Threads running here that this engine posted an interrupt to. */
  readonly #interrupts = new Set<string>();
  /** Called once a thread is no longer busy here. */
  readonly #idle = new Map<string, (() => void)[]>();

  constructor(host: TurnHost) {
    this.#host = host;
  }

  /** Whether a run of `threadId` goes on in this engine (or one is being started). */
  isBusy(threadId: string): boolean {
    return this.#busy.has(threadId);
  }

  /**
   * Resolves once no run or send of `threadId` goes on in this engine and none is due: the
   * messages its runs left in the inbox have been taken by the turns after (or wait for another
   * process). A caller that holds a thread while this engine runs it (a worker's job, its lock)
   * keeps it until then.
   */
  idle(threadId: string): Promise<void> {
    if (!this.#busy.has(threadId)) return Promise.resolve();
    return new Promise((resolve) => this.#onIdle(threadId, resolve));
  }

  /** Whether this engine posted an interrupt to `threadId` that no turn has taken yet. */
  interruptPosted(threadId: string): boolean {
    return this.#interrupts.has(threadId);
  }

  /**
   * Marks `thread` busy until `result` settles; then the messages its run took resolve their
   * sends, and its inbox is read for a next turn.
   */
  track(thread: ThreadContext, result: Promise<ThreadResult>): Promise<ThreadResult> {
    const threadId = thread.threadId;
    const release = this.#hold(threadId);
    result
      .then(
        (ended) => this.#settle(thread, (w) => w.resolve({ thread, result: ended })),
        (error: unknown) => {
          // The store refused the run as a stale writer: nothing it took is stored, and the
          // inbox is read again (the messages wait there, or another process has taken them).
          if (!taking(error)) this.#settle(thread, (w) => w.reject(error));
        },
      )
      .finally(() => {
        this.#due.add(threadId);
        release();
      });
    return result;
  }

  /** Sends `message` to `threadId`: a new thread, the answer it waits for, or its next turn. */
  async send(
    threadId: string,
    message: LLMMessage,
    options: TurnOptions,
    scope?: TurnScope,
    /** Called with the message's id once it is posted to wait for a turn (`send` then hears the thread from the turn that takes it). */
    onPosted?: (messageId: string) => void,
  ): Promise<Turn> {
    checkOptions(options);
    if (this.#busy.has(threadId))
      return this.#post(threadId, message, options, scope, true, onPosted).catch(
        async (error: unknown) => {
          // Its first turn runs here and has not stored it yet: the message takes the next turn.
          if (!SkeinError.hasCode(error, 'CHECKPOINT_NOT_FOUND') || !this.#busy.has(threadId))
            throw error;
          // Posted in the order they were sent, once it is stored.
          await new Promise<void>((resolve) => this.#onIdle(threadId, resolve));
          return this.#postToNew(threadId, message, options, scope, onPosted);
        },
      );
    const release = this.#hold(threadId);
    let busy: string | undefined;
    try {
      const stored = await this.#load(threadId, scope);
      if (!stored)
        return (
          (await this.#create(threadId, message, options, scope)) ??
          this.#postToNew(threadId, message, options, undefined, onPosted)
        );
      // A retried send that made the thread: its message is the thread's first.
      if (options.messageId !== undefined && madeBy(stored, options.messageId))
        return { thread: stored, result: retried(stored, options.messageId) };
      busy = busyReason(stored);
      if (busy !== undefined && options.ifBusy === 'reject')
        throw ThreadError.busy(threadId, stored.status, busy);
      const inbox = this.#host.inbox;
      if (busy !== undefined && !inbox) throw ThreadError.state(threadId, stored.status, busy);
      // Nothing waits before it: the message starts the turn without a trip through the inbox.
      if (
        busy === undefined &&
        (!inbox ||
          (options.messageId === undefined && (await inbox.pendingMessages(threadId)).length === 0))
      )
        try {
          return await this.#turn(stored, [message], options);
        } catch (error) {
          // Another process took the thread meanwhile: the message waits for its turn.
          if (!inbox || !SkeinError.hasCode(error, 'THREAD_LEASED')) throw error;
        }
      // Not awaited: the thread is read for a turn once this send lets go of it.
      return this.#post(threadId, message, options, undefined, false, onPosted);
    } finally {
      release();
    }
  }

  /** The stored thread, as `scope`'s principal may see it. */
  async #load(
    threadId: string,
    scope: TurnScope | undefined,
    mustExist = false,
  ): Promise<ThreadContext | undefined> {
    const stored = await this.#host.load(threadId);
    if (!stored && mustExist) throw new CheckpointNotFoundError(threadId);
    // To a principal, a thread of another (or of none) is one that does not exist; and as its id
    // is taken, it cannot be made either.
    if (stored && scope && stored.state.principal !== scope.principal)
      throw new CheckpointNotFoundError(threadId);
    scope?.onTaken?.();
    return stored;
  }

  async #create(
    threadId: string,
    message: LLMMessage,
    options: TurnOptions,
    scope: TurnScope | undefined,
  ): Promise<Turn | undefined> {
    const { workflowId = 'chat', variables } = options;
    const principal = scope?.principal;
    // Its id is kept with it, so a retry of this send finds it made the thread (`madeBy`).
    const first =
      options.messageId === undefined
        ? message
        : { ...message, metadata: { ...message.metadata, inboxId: options.messageId } };
    const thread = this.#host.create(workflowId, {
      threadId,
      messages: [first],
      ...(variables === undefined ? {} : { variables }),
      ...(principal === undefined ? {} : { principal }),
    });
    const started = await this.#host.start(thread, runOptions(options)).catch((error: unknown) => {
      // Two first messages raced: the other made the thread, this one is its next message.
      if (!this.#host.inbox || !taking(error)) throw error;
      return undefined;
    });
    if (!started) return undefined;
    try {
      return { thread, result: await started.result };
    } catch (error) {
      // The other made the thread and let go of it between this send's read and its first save,
      // which the store refused: nothing of this run was stored, so the message is the thread's
      // next, as if it had lost the race at the start.
      if (!this.#host.inbox || !taking(error) || thread.lastCheckpointId !== undefined) throw error;
      return undefined;
    }
  }

  /**
   * Posts to a thread being made (here, or by another process that won the race to make it),
   * which may not have stored its first checkpoint yet: a post needs a stored thread. Tried again a few times, waiting a
   * little longer each time (the other process stores it within its first node).
   */
  async #postToNew(
    threadId: string,
    message: LLMMessage,
    options: TurnOptions,
    scope?: TurnScope,
    onPosted?: (messageId: string) => void,
  ): Promise<Turn> {
    for (let attempt = 1; ; attempt++)
      try {
        return await this.#post(threadId, message, options, scope, false, onPosted);
      } catch (error) {
        if (!SkeinError.hasCode(error, 'CHECKPOINT_NOT_FOUND') || attempt === NEW_THREAD_TRIES)
          throw error;
        await new Promise((resolve) => setTimeout(resolve, 5 * attempt));
      }
  }

  /** A turn of `thread` taking `messages` now (the answer it waits for, or a new turn). */
  async #turn(
    thread: ThreadContext,
    messages: readonly LLMMessage[],
    options: TurnOptions | undefined,
    endWait = false,
  ): Promise<Turn> {
    const { turn } = nextTurn(thread, messages, options?.clear, endWait);
    const started =
      turn.kind === 'answer'
        ? await this.#host.start(thread, runOptions(options), { input: turn.input })
        : await this.#host.start(thread, runOptions(options));
    return { thread, result: await started.result };
  }

  /**
   * Posts `message` to the thread's inbox and resolves once a turn took it (or with it posted,
   * when no turn here will). The inbox is read as soon as the thread is no longer busy here.
   */
  async #post(
    threadId: string,
    message: LLMMessage,
    options: TurnOptions,
    scope: TurnScope | undefined,
    runsHere: boolean,
    onPosted?: (messageId: string) => void,
  ): Promise<Turn> {
    const inbox = this.#host.inbox;
    const release = this.#hold(threadId);
    try {
      if (scope) await this.#load(threadId, scope, true);
      if (runsHere && options.ifBusy === 'reject')
        throw ThreadError.busy(threadId, 'RUNNING', 'a turn runs in this engine');
      if (!inbox)
        throw ThreadError.state(
          threadId,
          'RUNNING',
          'a turn runs in this engine, and the store keeps no inbox (postMessage) for the message to wait in',
        );
      if (options.clear)
        throw new InvalidArgumentError(
          'options.clear',
          `thread ${threadId} is busy: a message that waits for a turn cannot clear the conversation (send it with clear once the thread is idle)`,
        );
      const messageId = options.messageId ?? randomUUID();
      onPosted?.(messageId);
      const mode =
        options.ifBusy === undefined || options.ifBusy === 'reject' ? 'queue' : options.ifBusy;
      const { seq } = await inbox.postMessage(threadId, {
        id: messageId,
        message,
        mode,
        postedAt: new Date().toISOString(),
      });
      if (mode === 'interrupt') this.#interrupts.add(threadId);
      const taken = new Promise<Turn>((resolve, reject) => {
        const waiter: Waiter = { seq, messageId, options, resolve, reject };
        const waiters = this.#waiters.get(threadId);
        if (waiters) waiters.push(waiter);
        else this.#waiters.set(threadId, [waiter]);
      });
      this.#due.add(threadId);
      return taken;
    } finally {
      release();
    }
  }

  /** Busy from now until the returned function is called; then a due inbox is read. */
  #hold(threadId: string): () => void {
    this.#busy.set(threadId, (this.#busy.get(threadId) ?? 0) + 1);
    let held = true;
    return () => {
      if (!held) return;
      held = false;
      const left = this.#busy.get(threadId)! - 1;
      if (left > 0) {
        this.#busy.set(threadId, left);
        return;
      }
      this.#busy.delete(threadId);
      if (this.#due.delete(threadId)) void this.#next(threadId);
      else {
        const idle = this.#idle.get(threadId);
        this.#idle.delete(threadId);
        for (const call of idle ?? []) call();
      }
    };
  }

  #onIdle(threadId: string, call: () => void): void {
    const idle = this.#idle.get(threadId);
    if (idle) idle.push(call);
    else this.#idle.set(threadId, [call]);
  }

  /** Settles the sends whose messages the run of `thread` took (its inbox mark). */
  #settle(thread: ThreadContext, settle: (waiter: Waiter) => void): void {
    const waiters = this.#waiters.get(thread.threadId);
    if (!waiters) return;
    const mark = thread.state.inboxTaken ?? 0;
    const left: Waiter[] = [];
    for (const waiter of waiters)
      if (waiter.seq <= mark) settle(waiter);
      else left.push(waiter);
    if (left.length > 0) this.#waiters.set(thread.threadId, left);
    else this.#waiters.delete(thread.threadId);
  }

  /** Every send still waiting on `threadId`, settled at once (and forgotten). */
  #settleAll(threadId: string, settle: (waiter: Waiter) => void): void {
    const waiters = this.#waiters.get(threadId);
    this.#waiters.delete(threadId);
    for (const waiter of waiters ?? []) settle(waiter);
  }

  /**
   * Reads the thread's inbox and starts the turn that takes what waits there, when the thread
   * can take it; sends that no turn here will take resolve with their messages posted.
   */
  async #next(threadId: string): Promise<void> {
    const inbox = this.#host.inbox;
    if (!inbox) return;
    const release = this.#hold(threadId);
    let thread: ThreadContext | undefined;
    let moved = false;
    try {
      const taken = this.#taken.get(threadId);
      if (taken !== undefined)
        await new Promise((resolve) => setTimeout(resolve, takenRetryDelay(taken)));
      // Read before the thread, and kept past its mark: a message another process took in
      // between is in the thread then, and must not be taken twice.
      const read = await inbox.pendingMessages(threadId);
      this.#interrupts.delete(threadId);
      // Nothing waits and no send here waits: the thread is not loaded (a run's end costs a read).
      if (read.length === 0 && !this.#waiters.has(threadId)) return;
      thread = await this.#host.load(threadId);
      if (!thread) throw new CheckpointNotFoundError(threadId);
      const mark = thread.state.inboxTaken ?? 0;
      const pending = read.filter((p) => p.seq > mark);
      if (pending.length === 0) return;
      const interrupt = pending.some((p) => p.mode === 'interrupt');
      const options = this.#waiters.get(threadId)?.find((w) => w.seq === pending[0]!.seq)?.options;
      const pause = thread.state.pending;
      const ended =
        interrupt && thread.status === 'PAUSED' && pause
          ? pauseKindOf(pause).interrupt(pause, 'interrupted by a new message')
          : undefined;
      if (typeof ended === 'object') {
        // The pause takes the interrupt as its answer (tool approvals: every call not approved).
        const started = await this.#host
          .start(thread, runOptions(options), { input: ended.answer })
          .catch((error: unknown) => {
            // Another process answered or runs it: it meets the interrupt.
            if (!taking(error) && !SkeinError.hasCode(error, 'RESUME_CONFLICT')) throw error;
          });
        await started?.result;
        return;
      }
      if (busyReason(thread) !== undefined && !(interrupt && endsByInterrupt(thread))) return;
      const count = nextTurnCount(thread);
      const messages = pending.slice(0, count ?? pending.length);
      thread.dispatch({ type: 'inbox-taken', seq: messages.at(-1)!.seq });
      await this.#turn(thread, messages.map(inboxMessage), undefined, interrupt).catch(
        (error: unknown) => {
          if (!taking(error)) throw error;
          moved = true;
        },
      );
      // Another process took the thread, or moved it on since it was read: read again (it runs
      // it now, or it has taken the messages, or they wait for a fresher turn here).
      // Read again after a wait that grows while it stays taken (`takenRetryDelay`).
      if (moved) {
        this.#due.add(threadId);
        this.#taken.set(threadId, (this.#taken.get(threadId) ?? 0) + 1);
      }
      // A turn that could not store what it took (its store failed) is not tried again here:
      // the messages stay in the inbox for the thread's next turn.
      else if ((thread.state.inboxTaken ?? 0) <= mark) this.#due.delete(threadId);
    } catch (error) {
      this.#due.delete(threadId);
      this.#settleAll(threadId, (w) => w.reject(error));
    } finally {
      if (!moved) this.#taken.delete(threadId);
      // Sends no turn here took: their messages wait in the inbox for whoever runs the thread.
      if (thread && !this.#busyBeyond(threadId))
        this.#settleAll(threadId, (w) =>
          w.resolve({ thread: thread!, result: postedResult(thread!, w.seq, w.messageId) }),
        );
      release();
    }
  }

  /** Whether more than this read holds the thread (a run started from it still goes on). */
  #busyBeyond(threadId: string): boolean {
    return (this.#busy.get(threadId) ?? 0) > 1 || this.#due.has(threadId);
  }
}

/** How many waiting messages a thread's next turn takes: one as an answer, else all. */
function nextTurnCount(thread: ThreadContext): number | undefined {
  return takesMessage(thread) ? 1 : undefined;
}

/** What a retried send that made `thread` resolves with: how its thread is now. */
function retried(thread: ThreadContext, messageId: string): SendResult {
  const status = thread.status;
  return status === 'RUNNING' || status === 'PENDING'
    ? postedResult(thread, 0, messageId)
    : resultOf(thread, status, 0);
}

/** Whether `thread` was made by the send of `messageId` (its first user message carries it). */
function madeBy(thread: ThreadContext, messageId: string): boolean {
  const first = thread.conversation.getAllMessages().find((m) => m.role === 'user');
  return first?.metadata?.inboxId === messageId;
}
