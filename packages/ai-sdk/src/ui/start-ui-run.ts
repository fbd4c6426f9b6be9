import type { ThreadEventListener } from '@skein/core';
import { EventTranslator, type SkeinDataMode } from './event-translator.js';
import type { UIChunk } from './ui-chunk.js';
import { UIRun } from './ui-run.js';

/**
 * A thread's run to stream: given the listener to pass as `onEvent` and the signal to pass on
 * (the stop endpoint aborts it), it starts the run and resolves when the run ends.
 * `(onEvent, signal) => engine.send(threadId, text, { onEvent, signal })` is the usual one.
 */
export type ThreadRun = (onEvent: ThreadEventListener, signal: AbortSignal) => Promise<unknown>;

export interface UIRunOptions {
  /** The thread whose events become the answer (events of its branches are left out). */
  readonly threadId: string;
  /** The id of the assistant UI message the parts build (`start`'s `messageId`). */
  readonly messageId?: string;
  /** Skein's `data-skein-*` parts: transient (default; `onData` only), kept as parts, or off. */
  readonly skeinData?: SkeinDataMode;
  /** Aborts the run (as the stop endpoint does). */
  readonly signal?: AbortSignal;
  /** Parts a late reader gets before the run's own (see `UIRun`). */
  readonly prefix?: readonly UIChunk[];
}

function describe(error: unknown): string {
  if (error instanceof Error)
    return 'code' in error && typeof error.code === 'string'
      ? `${error.code}: ${error.message}`
      : error.message;
  return String(error);
}

/** Starts `run` and returns the log of its parts, which ends when the run does. */
export function startUIRun(run: ThreadRun, options: UIRunOptions): UIRun {
  const log = new UIRun(
    options.messageId === undefined
      ? { type: 'start' }
      : { type: 'start', messageId: options.messageId },
    options.prefix,
  );
  const translator = new EventTranslator(options.threadId, (c) => log.push(c), options.skeinData);
  const { signal } = options;
  if (signal) {
    if (signal.aborted) log.controller.abort(signal.reason);
    else
      signal.addEventListener('abort', () => log.controller.abort(signal.reason), { once: true });
  }
  let running: Promise<unknown>;
  try {
    running = run((event) => translator.translate(event), log.controller.signal);
  } catch (error) {
    running = Promise.reject(error);
  }
  running.then(
    () => {
      // A run that ended without a thread event saying how (it never started).
      translator.fail('the run ended without finishing the thread');
      log.end();
    },
    (error: unknown) => {
      translator.fail(describe(error));
      log.end();
    },
  );
  return log;
}
