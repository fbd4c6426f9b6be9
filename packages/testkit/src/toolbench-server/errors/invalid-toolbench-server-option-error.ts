import { SkeinError } from '@skein/spec';

/** An option of `startToolBenchServer` (or `setFailure`) that cannot work. */
export class InvalidToolBenchServerOptionError extends SkeinError<'TOOLBENCH_SERVER_INVALID_OPTION'> {
  static override readonly errorName = 'InvalidToolBenchServerOptionError';
  readonly option: string;

  constructor(option: string, problem: string) {
    super(
      'TOOLBENCH_SERVER_INVALID_OPTION',
      `Invalid ToolBench server option ${option}: ${problem}`,
      {
        details: { option, problem },
      },
    );
    this.option = option;
  }
}
