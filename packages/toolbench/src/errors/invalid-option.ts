import { InvalidArgumentError } from '@skein/spec';

/**
 * An option of `ToolBenchClient`, `toolsFromQuery` or `createReActLLMClient` that cannot work. Its
 * `argument` is the option; `details` has the `problem`.
 */
export function invalidOption(option: string, problem: string): InvalidArgumentError {
  return new InvalidArgumentError(option, `Invalid option ${option}: ${problem}`, { problem });
}
