import type { LLMMessage } from '@skein/spec';
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

interface Queued {
  readonly message: LLMMessage;
  readonly options: TurnOptions;
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
  send(threadId: string, message: LLMMessage, options: TurnOptions): Promise<Turn> {
    if (this.#busy.has(threadId))
      return new Promise((resolve, reject) =>
        this.#queue(threadId, { message, options, resolve, reject }),
      );
    return this.#turn(threadId, [message], options).then(({ turn }) => turn);
  }

  #queue(threadId: string, queued: Queued): void {
    const inbox = this.#inboxes.get(threadId);
    if (inbox) inbox.push(queued);
    else this.#inboxes.set(threadId, [queued]);
  }

  /** One turn taking `messages` (or the first of them); the rest are queued again. */
  async #turn(
    threadId: string,
    messages: readonly LLMMessage[],
    options: TurnOptions,
  ): Promise<{ turn: Turn; taken: number }> {
    let release!: () => void;
    // Busy from now, so a send while the thread loads waits for this turn instead of racing it.
    this.track(threadId, new Promise<void>((resolve) => (release = resolve)));
    try {
      const { thread, started, taken } = await this.#start(threadId, messages, options);
      const result = await this.track(threadId, started.result);
      return { turn: { thread, result }, taken };
    } finally {
      release();
    }
  }

  async #start(threadId: string, messages: readonly LLMMessage[], options: TurnOptions) {
    const { workflowId = 'chat', variables, clear, ...execute } = options;
    const stored = await this.#host.load(threadId);
    if (!stored) {
      const thread = this.#host.create(workflowId, {
        threadId,
        messages,
        ...(variables === undefined ? {} : { variables }),
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
    const inbox = this.#inboxes.get(threadId);
    if (!inbox) return;
    this.#inboxes.delete(threadId);
    this.#turn(
      threadId,
      inbox.map((q) => q.message),
      inbox[0]!.options,
    ).then(
      ({ turn, taken }) => {
        for (const q of inbox.slice(0, taken)) q.resolve(turn);
        // Not taken (the thread paused for one answer): first in line for the next turn.
        const rest = inbox.slice(taken);
        if (rest.length > 0)
          this.#inboxes.set(threadId, [...rest, ...(this.#inboxes.get(threadId) ?? [])]);
        this.#drain(threadId);
      },
      (error: unknown) => {
        for (const q of inbox) q.reject(error);
      },
    );
  }
}
