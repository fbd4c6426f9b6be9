/** The exit code of a program stopped because its reader closed the pipe: 128 + SIGPIPE (13). */
export const EXIT_OUTPUT_CLOSED = 141;

type StopReason = 'interrupted' | 'output-closed';

export interface Stop {
  /** Aborted on Ctrl-C or when stdout is closed; the engine then cancels the run between steps. */
  readonly signal: AbortSignal;
  /** Why the app was asked to stop, if it was. */
  readonly reason: () => StopReason | undefined;
  /** Gives Ctrl-C back its default (the app is done). Stream errors stay handled to the end. */
  dispose(): void;
}

/**
 * One signal for every reason to stop early: Ctrl-C, or a reader that went away (`skein-example |
 * head -1`). Node reports a closed pipe as an `error` event (EPIPE) on the stream; with nobody
 * listening it crashes the app with a stack trace halfway through a node and the thread stays
 * RUNNING. Here the run is cancelled like Ctrl-C instead: the thread ends CANCELLED with a
 * checkpoint, `--resume` continues it, and writes to the closed stream are dropped by Node. A
 * second Ctrl-C kills the app as usual.
 */
export function watchForStop(): Stop {
  const controller = new AbortController();
  let reason: StopReason | undefined;
  const stop = (why: StopReason) => {
    reason ??= why;
    controller.abort();
  };
  const onInterrupt = () => stop('interrupted');
  // Any failed write means stdout is gone (EPIPE from a closed pipe, EIO from a closed terminal).
  const onStdoutError = () => stop('output-closed');
  // A failed write to stderr leaves nowhere to report it: the app goes on without it.
  const onStderrError = () => {};
  process.once('SIGINT', onInterrupt);
  process.stdout.on('error', onStdoutError);
  process.stderr.on('error', onStderrError);
  return {
    signal: controller.signal,
    reason: () => reason,
    dispose() {
      process.removeListener('SIGINT', onInterrupt);
    },
  };
}
