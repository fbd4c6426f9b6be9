import { CheckpointNotFoundError, type LLMMessage } from '@skein/spec';
import type { ExecuteOptions, StartedRun, ThreadResult } from '../run/thread-executor.js';
import type { BuildThreadOptions } from '../thread/thread-builder.js';
import type { ThreadContext } from '../thread/thread-context.js';
import { nextTurn } from './chat-turn.js';

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
}

/** Options of one send that the turn taking it uses. */
export interface TurnOptions extends ExecuteOptions {
  /** The workflow a new thread runs (default `chat`). */
  readonly workflowId?: string;
  /** Variables of a new thread. */
  readonly variables?: Readonly<Record<string, unknown>>;
  /**
   * Clear the conversation before this message (a new topic): earlier turns stay stored but
   * leave the model's view; the system prompt and the tool description stay.
   */
  readonly clear?: boolean;
}

export interface Turn {
  readonly thread: ThreadContext;
  readonly result: ThreadResult;
}

/**
 * A send of a principal's view: a new thread is built for `principal`, a stored thread of
 * another (or of none) is `CHECKPOINT_NOT_FOUND`, and `onTaken` is called once a turn takes the
 * message, when the thread is known to be the principal's (the send starts hearing events then).
 */
export interface TurnScope {
  readonly principal: string;
  readonly onTaken?: () => void;
}

interface Queued {
  readonly message: LLMMessage;
  readonly options: TurnOptions;
  readonly scope: TurnScope | undefined;
  readonly resolve: (turn: Turn) => void;
  readonly reject: (error: unknown) => void;
}

/**
 * The threads this engine runs now, and the messages sent to them meanwhile. A message sent to a
 * thread that runs here waits for the run to end and is taken by the next turn (several at once
 * when the thread ran to its end; one when it paused for an answer). The queue is in memory: a
 * message is stored once a turn takes it, and a send resolves only then.
 */
export class ThreadTurns {
  readonly #host: TurnHost;
  /** Runs (and turns being started) per thread; a thread is busy while it has any. */
  readonly #busy = new Map<string, number>();
  readonly #inboxes = new Map<string, Queued[]>();

  constructor(host: TurnHost) {
    this.#host = host;
  }

  /** Whether a run of `threadId` goes on in this engine (or one is being started). */
  isBusy(threadId: string): boolean {
    return this.#busy.has(threadId);
  }

  /** Marks `threadId` busy until `result` settles; then the messages sent meanwhile are taken. */
  track<T>(threadId: string, result: Promise<T>): Promise<T> {
    this.#busy.set(threadId, (this.#busy.get(threadId) ?? 0) + 1);
    const done = () => {
      const left = this.#busy.get(threadId)! - 1;
      if (left > 0) this.#busy.set(threadId, left);
      else {
        this.#busy.delete(threadId);
        this.#drain(threadId);
      }
    };
    result.then(done, done);
    return result;
  }

  /** Sends `message` to `threadId`: a new thread, the answer it waits for, or its next turn. */
  send(
    threadId: string,
    message: LLMMessage,
    options: TurnOptions,
    scope?: TurnScope,
  ): Promise<Turn> {
    if (this.#busy.has(threadId))
      return new Promise((resolve, reject) =>
        this.#queue(threadId, { message, options, scope, resolve, reject }),
      );
    return this.#turn(threadId, [message], options, scope === undefined ? [] : [scope]).then(
      ({ turn }) => turn,
    );
  }

  #queue(threadId: string, queued: Queued): void {
    const inbox = this.#inboxes.get(threadId);
    if (inbox) inbox.push(queued);
    else this.#inboxes.set(threadId, [queued]);
  }

  /**
   * One turn taking `messages` (or the first of them); the rest are queued again. `scopes` are
   * those of the sends the messages came from, all of one principal (none: unscoped sends).
   */
  async #turn(
    threadId: string,
    messages: readonly LLMMessage[],
    options: TurnOptions,
    scopes: readonly TurnScope[],
  ): Promise<{ turn: Turn; taken: number }> {
    let release!: () => void;
    // Busy from now, so a send while the thread loads waits for this turn instead of racing it.
    this.track(threadId, new Promise<void>((resolve) => (release = resolve)));
    try {
      const { thread, started, taken } = await this.#start(threadId, messages, options, scopes);
      const result = await this.track(threadId, started.result);
      return { turn: { thread, result }, taken };
    } finally {
      release();
    }
  }

  async #start(
    threadId: string,
    messages: readonly LLMMessage[],
    options: TurnOptions,
    scopes: readonly TurnScope[],
  ) {
    const { workflowId = 'chat', variables, clear, ...execute } = options;
    const principal = scopes[0]?.principal;
    const stored = await this.#host.load(threadId);
    // To a principal, a thread of another (or of none) is one that does not exist; and as its id
    // is taken, it cannot be made either.
    if (stored && principal !== undefined && stored.state.principal !== principal)
      throw new CheckpointNotFoundError(threadId);
    for (const scope of scopes) scope.onTaken?.();
    if (!stored) {
      const thread = this.#host.create(workflowId, {
        threadId,
        messages,
        ...(variables === undefined ? {} : { variables }),
        ...(principal === undefined ? {} : { principal }),
      });
      return { thread, started: await this.#host.start(thread, execute), taken: messages.length };
    }
    const { turn, taken } = nextTurn(stored, messages, clear);
    const started =
      turn.kind === 'answer'
        ? await this.#host.start(stored, execute, { input: turn.input })
        : await this.#host.start(stored, execute);
    return { thread: stored, started, taken };
  }

  #drain(threadId: string): void {
    if (this.#busy.has(threadId)) return;
    const queued = this.#inboxes.get(threadId);
    if (!queued) return;
    this.#inboxes.delete(threadId);
    // One turn takes the messages of one caller: the first in line and those of the same
    // principal after it (the unscoped ones together); the others wait for the next turn.
    const principal = queued[0]!.scope?.principal;
    let count = queued.findIndex((q) => q.scope?.principal !== principal);
    if (count < 0) count = queued.length;
    const inbox = queued.slice(0, count);
    const waiting = queued.slice(count);
    const requeue = (first: readonly Queued[]) => {
      const next = [...first, ...waiting, ...(this.#inboxes.get(threadId) ?? [])];
      if (next.length > 0) this.#inboxes.set(threadId, next);
    };
    this.#turn(
      threadId,
      inbox.map((q) => q.message),
      inbox[0]!.options,
      inbox.flatMap((q) => (q.scope === undefined ? [] : [q.scope])),
    ).then(
      ({ turn, taken }) => {
        for (const q of inbox.slice(0, taken)) q.resolve(turn);
        // Not taken (the thread paused for one answer): first in line for the next turn.
        requeue(inbox.slice(taken));
        this.#drain(threadId);
      },
      (error: unknown) => {
        for (const q of inbox) q.reject(error);
        requeue([]);
        this.#drain(threadId);
      },
    );
  }
}
