import type { UIChunk } from '../ui-chunk.js';
import type { UIRun } from '../ui-run.js';
import type { UIPartsLog } from './ui-parts-log.js';

/**
 * Writes a run's parts (the run was made the thread's current one with `log.begin`) to the log as a late reader needs them (its `start`, the stored prefix,
 * then each part), batched per turn of the event loop and in order, then marks its end. Resolves
 * when everything is written; a write that fails is reported to `onError` and the rest dropped
 * (readers elsewhere then stop short of the end; this process's own readers are unaffected).
 */
export async function recordRun(
  log: UIPartsLog,
  threadId: string,
  runId: string,
  run: UIRun,
  onError: (error: unknown) => void,
): Promise<void> {
  let seq = 0;
  let batch: (UIChunk | null)[] = [];
  let writing: Promise<void> = Promise.resolve();
  let failed = false;
  let finished!: () => void;
  const done = new Promise<void>((resolve) => (finished = resolve));
  const flush = (): void => {
    const parts = batch;
    batch = [];
    const from = seq;
    seq += parts.length;
    writing = writing
      .then(() => (failed ? undefined : log.append(threadId, runId, from, parts)))
      .catch((error: unknown) => {
        if (!failed) onError(error);
        failed = true;
      });
    if (parts.at(-1) === null) void writing.then(finished);
  };
  const add = (part: UIChunk | null): void => {
    batch.push(part);
    if (batch.length === 1) setImmediate(flush);
  };
  run.follow({ chunk: add, end: () => add(null) }, true);
  await done;
}
