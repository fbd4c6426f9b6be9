import { closeSync, existsSync, openSync, readSync, statSync, truncateSync } from 'node:fs';
import { join } from 'node:path';
import { RunnerError } from '../errors/runner-error.js';
import { type ItemResult, threadIdOf } from './item-result.js';
import { couldStartLine, scanLines } from './scan-lines.js';

export interface ReadResultsOptions {
  /** The run: a result is this run's when its thread is `<runId>/<itemId>`. */
  readonly runId: string;
  /** The run folder, holding `exportFiles`. */
  readonly folder?: string;
  /** The run's export files (relative to `folder`), brought back to the results kept. */
  readonly exportFiles?: readonly string[];
  /**
   * Change no file (for a reader beside the run, as `skein score` is): a torn last line is
   * skipped, not cut, and export files are not read.
   */
  readonly readOnly?: boolean;
}

export interface PreviousResults {
  /** Results kept, in file order. */
  readonly count: number;
  /** Export file sizes after the last result kept. */
  readonly exportBytes: Readonly<Record<string, number>>;
  /** Bytes cut from the end of the results file: a torn last line, and results cut with it. */
  readonly tornBytes: number;
}

const STATUSES: ReadonlySet<unknown> = new Set(['COMPLETED', 'FAILED', 'PAUSED', 'INVALID']);

/**
 * A result line this run wrote: the fields every result has, and a thread id naming this run
 * (an INVALID entry never had a thread).
 */
function isOwnResult(value: unknown, runId: string): value is ItemResult {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const r = value as Partial<Record<keyof ItemResult, unknown>>;
  if (typeof r.itemId !== 'string' || r.itemId === '' || !STATUSES.has(r.status)) return false;
  if (typeof r.usage !== 'object' || r.usage === null || typeof r.durationMs !== 'number')
    return false;
  return r.threadId === undefined
    ? r.status === 'INVALID'
    : r.threadId === threadIdOf(runId, r.itemId);
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function sizeOf(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}

/** Whether `path` holds a newline just before `bytes`: where a line the run wrote ended. */
function endsLineAt(path: string, bytes: number): boolean {
  const fd = openSync(path, 'r');
  try {
    const byte = Buffer.alloc(1);
    return readSync(fd, byte, 0, 1, bytes - 1) === 1 && byte[0] === 10;
  } finally {
    closeSync(fd);
  }
}

/**
 * Reads the `results.jsonl` an earlier process of this run wrote, handing each result to
 * `onResult`, and brings the run's files back to a state where every item is in each of them
 * exactly once:
 *
 * - a last line without its newline is a write torn by a crash, cut away, but only if it could be
 *   the start of a result: the run never cuts a line it cannot tell it wrote;
 * - every result records the export files' sizes after its own export lines (`exportBytes`); a
 *   result whose lines are not all in the exports (an export file torn or cut short) is cut with
 *   every result after it, so those items are reported again (from their stored threads);
 * - export files are cut back to the sizes the last result kept records (lines of items whose
 *   result was never written).
 *
 * Any whole line that is not a result of this run, or an export whose recorded line end is not
 * one, means the folder holds something the run did not write: `RunnerError`
 * (`OUTPUT_NOT_OURS`), and no file is changed. Call it only on a folder of this run.
 */
export async function readResults(
  path: string,
  onResult: (result: ItemResult) => void,
  options: ReadResultsOptions,
): Promise<PreviousResults> {
  const { runId, folder = '.', readOnly = false } = options;
  const exportFiles = readOnly ? [] : (options.exportFiles ?? []);
  const sizes = new Map(exportFiles.map((file) => [file, sizeOf(join(folder, file))]));
  let count = 0;
  let kept: Readonly<Record<string, number>> = {};
  let cutAt: number | undefined;
  let lineNumber = 0;
  if (existsSync(path))
    for await (const line of scanLines(path)) {
      lineNumber++;
      if (!line.terminated) {
        if (!couldStartLine(line.text))
          throw RunnerError.runFolder(
            path,
            `its last line (${lineNumber}) is neither a result of run "${runId}" nor the start of one: this run did not write it, and leaves the file as it is`,
            undefined,
            'OUTPUT_NOT_OURS',
          );
        cutAt ??= line.start;
        continue;
      }
      const value = parse(line.text);
      if (!isOwnResult(value, runId))
        throw RunnerError.runFolder(
          path,
          `line ${lineNumber} is not a result of run "${runId}": this run did not write it, and leaves the file as it is`,
          undefined,
          'OUTPUT_NOT_OURS',
        );
      if (cutAt !== undefined) continue;
      const recorded = value.exportBytes ?? kept;
      let whole = true;
      for (const [file, size] of sizes) if ((recorded[file] ?? 0) > size) whole = false;
      if (!whole) {
        cutAt = line.start;
        continue;
      }
      kept = recorded;
      onResult(value);
      count++;
    }
  for (const file of sizes.keys()) {
    const bytes = kept[file] ?? 0;
    if (bytes > 0 && !endsLineAt(join(folder, file), bytes))
      throw RunnerError.runFolder(
        join(folder, file),
        `has no line ending at byte ${bytes}, where the results say its lines end: it was changed after this run wrote it`,
        undefined,
        'OUTPUT_NOT_OURS',
      );
  }
  const tornBytes = cutAt === undefined ? 0 : sizeOf(path) - cutAt;
  if (readOnly) return { count, exportBytes: kept, tornBytes };
  try {
    if (cutAt !== undefined) truncateSync(path, cutAt);
    for (const [file, size] of sizes) {
      const bytes = kept[file] ?? 0;
      if (size > bytes) truncateSync(join(folder, file), bytes);
    }
  } catch (error) {
    throw RunnerError.runFolder(path, 'could not be cut back to its last whole result', error);
  }
  return { count, exportBytes: kept, tornBytes };
}
