import { SkeinError } from '@skein/spec';

/**
 * The run folder cannot be used: a results file whose lines (before the last) are not results,
 * a folder of another run id, or a file that cannot be read or written.
 */
export class RunFolderError extends SkeinError<'RUN_FOLDER_INVALID'> {
  static override readonly errorName = 'RunFolderError';
  readonly path: string;

  constructor(path: string, problem: string, cause?: unknown) {
    super('RUN_FOLDER_INVALID', `Run folder file ${path}: ${problem}`, {
      details: { path },
      ...(cause === undefined ? {} : { cause }),
    });
    this.path = path;
  }
}
