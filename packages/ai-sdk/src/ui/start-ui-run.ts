import type { PostedResult, ThreadEventListener } from '@skein/core';
import { EventTranslator, type GuardedTextMode, type SkeinDataMode } from './event-translator.js';
import { messageGate } from './message-gate.js';
import type { SkeinPostedData, UIChunk } from './ui-chunk.js';
import { UIRun } from './ui-run.js';

/**
 * A thread's run to stream: given the listener to pass as `onEvent` and the signal to pass on
 * (the stop endpoint aborts it), it starts the run and resolves when the run ends.
 * `(onEvent, signal) => engine.send(threadId, text, { onEvent, signal })` is the usual one; a
 * send that resolves with its message posted (`result.posted`) ends the stream with a
 * `data-skein-posted` part.
 */
export type ThreadRun = (onEvent: ThreadEventListener, signal: AbortSignal) => Promise<unknown>;

export interface UIRunOptions {
  /** The thread whose events become the answer (events of its branches are left out). */
  readonly threadId: string;
  /** The id of the assistant UI message the parts build (`start`'s `messageId`). */
  readonly messageId?: string;
  /** Skein's `data-skein-*` parts: transient (default; `onData` only), kept as parts, or off. */
  readonly skeinData?: SkeinDataMode;
  /**
   * A model call's text before its guardrails passed it: `stream` (default) sends it as it comes
   * and retracts it if a guardrail trips (`data-skein-retract`); `hold` sends each call's text
   * once the answer is taken, so a tripped answer never reaches the page. Pass `hold` when the
   * run's workflow names output guardrails (the chat handlers choose it for an engine with
   * guardrails).
   */
  readonly guardedText?: GuardedTextMode;
  /** Aborts the run (as the stop endpoint does). */
  readonly signal?: AbortSignal;
  /** Parts a late reader gets before the run's own (see `UIRun`). */
  readonly prefix?: readonly UIChunk[];
  /**
   * The UI id of the user message the run answers, when it may wait for a running turn: the
   * events before that message joins the thread are left out (see `messageGate`).
   */
  readonly answering?: string;
}

function describe(error: unknown): string {
  if (error instanceof Error)
    return 'code' in error && typeof error.code === 'string'
      ? `${error.code}: ${error.message}`
      : error.message;
  return String(error);
}

/** The inbox place of a send's message that no run here took (`result.posted`, see `SendResult`). */
function postedOf(value: unknown): Omit<SkeinPostedData, 'threadId'> | undefined {
  const result = (value as { result?: Partial<PostedResult> } | undefined)?.result;
  const posted = result?.posted;
  if (!posted || typeof posted !== 'object') return undefined;
  const status = result.status;
  return {
    ...(typeof posted.seq === 'number' && posted.seq > 0 ? { seq: posted.seq } : {}),
    status: status === 'WAITING' || status === 'PAUSED' ? status : 'RUNNING',
  };
}

/** Starts `run` and returns the log of its parts, which ends when the run does. */
export function startUIRun(run: ThreadRun, options: UIRunOptions): UIRun {
  const log = new UIRun(
    options.messageId === undefined
      ? { type: 'start' }
      : { type: 'start', messageId: options.messageId },
    options.prefix,
  );
  const translator = new EventTranslator(options.threadId, (c) => log.push(c), {
    ...(options.skeinData === undefined ? {} : { data: options.skeinData }),
    ...(options.guardedText === undefined ? {} : { guardedText: options.guardedText }),
    ...(options.messageId === undefined ? {} : { messageId: options.messageId }),
  });
  const { signal } = options;
  if (signal) {
    if (signal.aborted) log.controller.abort(signal.reason);
    else
      signal.addEventListener('abort', () => log.controller.abort(signal.reason), { once: true });
  }
  const translate: ThreadEventListener = (event) => translator.translate(event);
  const listener =
    options.answering === undefined
      ? translate
      : messageGate(options.threadId, options.answering, translate, () => translator.finish());
  let running: Promise<unknown>;
  try {
    running = run(listener, log.controller.signal);
  } catch (error) {
    running = Promise.reject(error);
  }
  running.then(
    (value) => {
      const posted = postedOf(value);
      // The message waits in the thread's inbox for a run elsewhere: the stream says so.
      if (posted) translator.posted({ threadId: options.threadId, ...posted });
      // A run that ended without a thread event saying how (it never started).
      else translator.fail('the run ended without finishing the thread');
      log.end();
    },
    (error: unknown) => {
      translator.fail(describe(error));
      log.end();
    },
  );
  return log;
}
