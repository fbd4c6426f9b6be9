import { InvalidArgumentError } from '@skein/spec';
import { RunnerError } from '../errors/runner-error.js';

// `exportTranscript` and the content check it runs name a part by its path.
const PART_PATH = /^messages\[(\d+)\]\.content\[(\d+)\]/;

/**
 * A part `exportTranscript` refused, as `RunnerError` naming the thread besides the message and
 * part (what a dataset of thousands of threads needs to find it); any other error as it is.
 */
export function exportPartError(error: unknown, threadId: string): unknown {
  if (!InvalidArgumentError.isInstance(error)) return error;
  const place = PART_PATH.exec(error.argument);
  if (!place) return error;
  const problem = (error.details as { problem?: unknown } | undefined)?.problem;
  return RunnerError.exportPart(
    threadId,
    Number(place[1]),
    Number(place[2]),
    typeof problem === 'string' ? problem : error.message,
    error,
  );
}
