import { SkeinError } from '@skein/conversation';

/** An option of `ToolBenchClient`, `toolsFromQuery` or `createReActLLMClient` that cannot work. */
export class InvalidToolBenchOptionError extends SkeinError {
  readonly option: string;

  constructor(option: string, problem: string) {
    super('TOOLBENCH_INVALID_OPTION', `Invalid option ${option}: ${problem}`, {
      details: { option, problem },
    });
    this.option = option;
  }
}
