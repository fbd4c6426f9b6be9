import { InvalidArgumentError } from '@skein/spec';

/**
 * An option of `startToolBenchServer` (or `setFailure`) that cannot work. Its `argument` is the
 * option (`failure.ms`); `details` has the `problem`.
 */
export function invalidServerOption(option: string, problem: string): InvalidArgumentError {
  return new InvalidArgumentError(option, `Invalid ToolBench server option ${option}: ${problem}`, {
    problem,
  });
}
