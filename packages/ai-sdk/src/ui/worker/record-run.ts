import type { UIChunk } from '../ui-chunk.js';
import type { UIRun } from '../ui-run.js';
import {
  type AttachmentMarker,
  type LoggedPart,
  markerOf,
  type ReadAttachment,
} from './attachment-marker.js';
import type { UIPartsLog } from './ui-parts-log.js';

/** Where a run is recorded, and how its thread's attachments are read. */
export interface RunRecord {
  readonly log: UIPartsLog;
  readonly threadId: string;
  readonly runId: string;
  readonly readAttachment: ReadAttachment;
}

/**
 * Writes a run's parts (the run was made the thread's current one with `log.begin`) to the log
 * as a late reader needs them (its `start`, the stored prefix, then each part), batched per turn
 * of the event loop and in order, then marks its end. A `file` chunk carrying its bytes is
 * written as a marker naming their digest: the thread's store keeps the bytes once, and a reader
 * reads them there (decision 0033). Before the end is written, a marker whose bytes the store
 * still does not hold (the run ended before the message holding them was saved) is replaced by
 * the chunk itself, so a reader never waits on bytes that will not come. Resolves when
 * everything is written; a write that fails is reported to `onError` and the rest dropped
 * (readers elsewhere then stop short of the end; this process's own readers are unaffected).
 */
export async function recordRun(
  record: RunRecord,
  run: UIRun,
  onError: (error: unknown) => void,
): Promise<void> {
  const { log, threadId, runId } = record;
  let seq = 0;
  let batch: LoggedPart[] = [];
  const markers: { seq: number; marker: AttachmentMarker; chunk: UIChunk }[] = [];
  let writing: Promise<void> = Promise.resolve();
  let failed = false;
  let finished!: () => void;
  const done = new Promise<void>((resolve) => (finished = resolve));
  const write = (work: () => Promise<void>): void => {
    writing = writing
      .then(() => (failed ? undefined : work()))
      .catch((error: unknown) => {
        if (!failed) onError(error);
        failed = true;
      });
  };
  const flush = (): void => {
    const parts = batch;
    batch = [];
    const from = seq;
    seq += parts.length;
    if (parts.length > 0) write(() => log.append(threadId, runId, from, parts));
  };
  const end = (): void => {
    flush();
    write(async () => {
      for (const { seq: at, marker, chunk } of markers)
        if ((await record.readAttachment(threadId, marker.digest)) === undefined)
          await log.replace(threadId, runId, at, chunk);
    });
    batch = [null];
    flush();
    void writing.then(finished);
  };
  const add = (part: UIChunk): void => {
    const marker = markerOf(part);
    if (marker) markers.push({ seq: seq + batch.length, marker, chunk: part });
    batch.push(marker ?? part);
    if (batch.length === 1) setImmediate(flush);
  };
  run.follow({ chunk: add, end }, true);
  await done;
}
