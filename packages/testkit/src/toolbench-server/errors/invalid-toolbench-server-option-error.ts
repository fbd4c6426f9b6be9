import { SkeinError } from '@skein/conversation';

/** An option of `startToolBenchServer` (or `setFailure`) that cannot work. */
export class InvalidToolBenchServerOptionError extends SkeinError {
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
