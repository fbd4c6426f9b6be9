import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { invalidOption } from '../errors/invalid-option.js';
import { RunnerError } from '../errors/runner-error.js';
import { RUN_FILE } from '../output/run-files.js';

/** What `run.json` records: the run, and the export files it appends to (fixed at its start). */
interface RunRecord {
  readonly runId: string;
  readonly workflowId?: string;
  readonly createdAt?: string;
  readonly exports?: readonly string[];
}

/** The folder is absent or empty (a new run may take it), or this run's own. */
type FolderState = { readonly state: 'new' } | { readonly state: 'ours' };

function errorCode(error: unknown): unknown {
  return (error as { code?: unknown } | null)?.code;
}

function readRecord(folder: string): RunRecord | undefined {
  const path = join(folder, RUN_FILE);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return undefined;
    throw RunnerError.runFolder(path, 'cannot be read', error);
  }
  let record: unknown;
  try {
    record = JSON.parse(text);
  } catch {
    record = undefined;
  }
  const { runId, exports } = (record ?? {}) as Partial<Record<keyof RunRecord, unknown>>;
  if (
    typeof record !== 'object' ||
    record === null ||
    typeof runId !== 'string' ||
    (exports !== undefined &&
      !(Array.isArray(exports) && exports.every((file) => typeof file === 'string')))
  )
    throw RunnerError.runFolder(
      path,
      'is not the record of a run (no run id): this folder was not written by a run; use another one',
      undefined,
      'OUTPUT_NOT_OURS',
    );
  return record as RunRecord;
}

function describeExports(files: readonly string[]): string {
  return files.length === 0 ? 'no exports' : `the exports ${files.join(', ')}`;
}

/**
 * Whether a run may write into `folder`, changing nothing: only a folder that does not exist, an
 * empty one, or one whose `run.json` names this run id. Anything else (files with no `run.json`,
 * another run's folder, a file) is refused with `RunnerError`, since the run could not tell its
 * own files from someone else's. With `exportFiles`, a folder of this run must have been started
 * with the same exports (`InvalidArgumentError`): an export added later would miss the items written
 * before it, and one dropped would miss those written after.
 */
export function checkRunFolder(
  folder: string,
  runId: string,
  exportFiles?: readonly string[],
): FolderState {
  let isFolder: boolean;
  try {
    isFolder = statSync(folder).isDirectory();
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return { state: 'new' };
    throw RunnerError.runFolder(folder, 'cannot be read', error);
  }
  if (!isFolder)
    throw RunnerError.runFolder(folder, 'is not a folder', undefined, 'OUTPUT_NOT_OURS');
  const record = readRecord(folder);
  if (record === undefined) {
    const entries = readdirSync(folder).sort();
    if (entries.length === 0) return { state: 'new' };
    const shown = entries.slice(0, 5).join(', ') + (entries.length > 5 ? ', …' : '');
    throw RunnerError.runFolder(
      folder,
      `holds files and no run.json, so no run wrote them (${shown}); a run writes only into an empty or new folder, or its own`,
      undefined,
      'OUTPUT_NOT_EMPTY',
    );
  }
  if (record.runId !== runId)
    throw RunnerError.runFolder(
      join(folder, RUN_FILE),
      `belongs to run "${record.runId}", not "${runId}": use another folder or that run id`,
      undefined,
      'OUTPUT_NOT_OURS',
    );
  if (exportFiles !== undefined) {
    const recorded = [...(record.exports ?? [])].sort();
    const wanted = [...exportFiles].sort();
    if (recorded.join('\n') !== wanted.join('\n'))
      throw invalidOption(
        'exports',
        `run "${runId}" in ${folder} was started with ${describeExports(recorded)}, not ${describeExports(wanted)}: go on with the same exports, or start a new run in another folder`,
      );
  }
  return { state: 'ours' };
}

/**
 * Takes the folder for this run: checks it (`checkRunFolder`), then creates it and its
 * `run.json` when it is new. `run.json` is created only if absent, so of two processes taking
 * the same empty folder at once, one is refused.
 */
export function claimRunFolder(
  folder: string,
  runId: string,
  workflowId: string,
  exportFiles: readonly string[],
): void {
  if (checkRunFolder(folder, runId, exportFiles).state === 'ours') return;
  const path = join(folder, RUN_FILE);
  const record: RunRecord = {
    runId,
    workflowId,
    createdAt: new Date().toISOString(),
    exports: exportFiles,
  };
  try {
    mkdirSync(folder, { recursive: true });
    writeFileSync(path, `${JSON.stringify(record, null, 2)}\n`, { flag: 'wx' });
  } catch (error) {
    if (errorCode(error) === 'EEXIST')
      throw RunnerError.runFolder(
        path,
        'was created by another process meanwhile',
        error,
        'OUTPUT_NOT_OURS',
      );
    throw RunnerError.runFolder(path, 'cannot be created', error);
  }
}

/** The run id recorded in a run folder, if it has one. */
export function recordedRunId(folder: string): string | undefined {
  try {
    const runId = (JSON.parse(readFileSync(join(folder, RUN_FILE), 'utf8')) as { runId?: unknown })
      .runId;
    return typeof runId === 'string' ? runId : undefined;
  } catch {
    return undefined;
  }
}
