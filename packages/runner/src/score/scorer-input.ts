import type { ThreadContext } from '@skein/core';
import type { LLMMessage } from '@skein/spec';
import { ScoreError } from '../errors/score-error.js';
import type { ItemResult } from '../output/item-result.js';
import type { ScoredToolCall, ScorerInput } from './scorer.js';

function parsed(text: string): unknown {
  try {
    return text.trim() === '' ? {} : JSON.parse(text);
  } catch {
    return text;
  }
}

/** The tool calls of the assistant messages, in order, each with its arguments parsed. */
export function toolCallsOf(messages: readonly LLMMessage[]): ScoredToolCall[] {
  const calls: ScoredToolCall[] = [];
  for (const message of messages)
    if (message.role === 'assistant')
      for (const call of message.toolCalls ?? [])
        calls.push({ id: call.id, name: call.name, arguments: parsed(call.arguments) });
  return calls;
}

interface Abort {
  controller?: AbortController;
  aborted?: { readonly reason: unknown };
  unlink?: (() => void) | undefined;
}

/**
 * One finished item as every scorer of it sees it. What costs is made on first use, once: the
 * thread's messages and tool calls (code scorers that read only the output never pay for them)
 * and the signal (an AbortController, made only for a scorer that reads it). The scorers of an
 * item start together, so they share one time limit: when it runs out, the signal is aborted
 * for those still running.
 */
export class FinishedItem implements ScorerInput {
  readonly item: unknown;
  readonly itemId: string;
  readonly result: ItemResult;
  readonly threadId: string;
  readonly thread: ThreadContext | undefined;
  readonly #runSignal: AbortSignal | undefined;
  #messages: readonly LLMMessage[] | undefined;
  #toolCalls: readonly ScoredToolCall[] | undefined;
  /** Made when a scorer reads the signal, or the time limit runs out: most items never need it. */
  #abort: Abort | undefined;

  constructor(
    item: unknown,
    result: ItemResult,
    threadId: string,
    thread: ThreadContext | undefined,
    runSignal?: AbortSignal,
  ) {
    this.item = item;
    this.itemId = result.itemId;
    this.result = result;
    this.threadId = threadId;
    this.thread = thread;
    this.#runSignal = runSignal;
  }

  get messages(): readonly LLMMessage[] {
    if (this.#messages === undefined) {
      if (!this.thread)
        throw new ScoreError(
          'SCORE_INPUT_MISSING',
          `Thread ${this.threadId} is not in the store, and this scorer reads its messages`,
          { itemId: this.itemId },
        );
      this.#messages = this.thread.conversation.getAllMessages();
    }
    return this.#messages;
  }

  get toolCalls(): readonly ScoredToolCall[] {
    this.#toolCalls ??= toolCallsOf(this.messages);
    return this.#toolCalls;
  }

  get signal(): AbortSignal {
    this.#abort ??= {};
    const state = this.#abort;
    if (!state.controller) {
      const controller = new AbortController();
      state.controller = controller;
      const run = this.#runSignal;
      if (state.aborted) controller.abort(state.aborted.reason);
      else if (run?.aborted) controller.abort(run.reason);
      else if (run) {
        const stop = () => controller.abort(run.reason);
        run.addEventListener('abort', stop, { once: true });
        state.unlink = () => run.removeEventListener('abort', stop);
      }
    }
    return state.controller.signal;
  }

  /** Aborts the signal (made or not yet) with `reason`: the scorers still running are too late. */
  abort(reason: unknown): void {
    this.#abort ??= {};
    if (this.#abort.aborted) return;
    this.#abort.aborted = { reason };
    this.#abort.controller?.abort(reason);
  }

  /** The scoring is over: the signal stops following the run's. */
  release(): void {
    const state = this.#abort;
    if (!state?.unlink) return;
    state.unlink();
    state.unlink = undefined;
  }
}
