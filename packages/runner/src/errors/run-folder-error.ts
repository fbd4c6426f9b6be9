import { SkeinError } from '@skein/spec';

/**
 * Why a run folder was refused. `OUTPUT_NOT_EMPTY`: the folder holds files and no `run.json`, so
 * nothing in it was written by a run. `OUTPUT_NOT_OURS`: it holds something this run cannot prove
 * it wrote (another run's `run.json`, one that is not a run record, a results line of someone
 * else, export files that no longer match the results), or the path is not a folder.
 * `RUN_FOLDER_INVALID`: a file of the run cannot be read or written.
 */
export type RunFolderErrorCode = 'RUN_FOLDER_INVALID' | 'OUTPUT_NOT_EMPTY' | 'OUTPUT_NOT_OURS';

/**
 * The run folder cannot be used. Whatever the code, the run stopped before changing any file it
 * did not write: choose another folder, or the run id recorded in this one.
 */
export class RunFolderError extends SkeinError<RunFolderErrorCode> {
  static override readonly errorName = 'RunFolderError';
  readonly path: string;

  constructor(
    path: string,
    problem: string,
    cause?: unknown,
    code: RunFolderErrorCode = 'RUN_FOLDER_INVALID',
  ) {
    super(code, `Run folder ${path}: ${problem}`, {
      details: { path },
      ...(cause === undefined ? {} : { cause }),
    });
    this.path = path;
  }
}
