import { InvalidArgumentError } from '@skein/spec';

/**
 * An option of `runDataset` (or a flag of `skein run`) is missing or has the wrong value. Its
 * `argument` is the option, e.g. `concurrency` or `--rpm`; `details` has the `problem`.
 */
export function invalidOption(option: string, problem: string): InvalidArgumentError {
  return new InvalidArgumentError(option, `Dataset run option ${option}: ${problem}`, { problem });
}
