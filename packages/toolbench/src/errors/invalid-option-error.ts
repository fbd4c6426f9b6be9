import { SkeinError } from '@skein/spec';

/** An option of `ToolBenchClient`, `toolsFromQuery` or `createReActLLMClient` that cannot work. */
export class InvalidToolBenchOptionError extends SkeinError<'TOOLBENCH_INVALID_OPTION'> {
  static override readonly errorName = 'InvalidToolBenchOptionError';
  readonly option: string;

  constructor(option: string, problem: string) {
    super('TOOLBENCH_INVALID_OPTION', `Invalid option ${option}: ${problem}`, {
      details: { option, problem },
    });
    this.option = option;
  }
}
