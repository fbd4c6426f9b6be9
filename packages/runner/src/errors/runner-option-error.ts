import { SkeinError } from '@skein/spec';

/** An option of `runDataset` (or a flag of `skein run`) is missing or has the wrong value. */
export class RunnerOptionError extends SkeinError<'RUNNER_INVALID_OPTION'> {
  static override readonly errorName = 'RunnerOptionError';
  /** The option, e.g. `concurrency` or `--rpm`. */
  readonly option: string;

  constructor(option: string, problem: string) {
    super('RUNNER_INVALID_OPTION', `Dataset run option ${option}: ${problem}`, {
      details: { option },
    });
    this.option = option;
  }
}
