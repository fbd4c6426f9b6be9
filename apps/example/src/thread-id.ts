import { InvalidArgumentError } from 'commander';

/**
 * What a thread id given on the command line may be. The id names the thread's output folder
 * (`<out>/<thread>/`), so it must be a plain name: no separators, no `.` or `..`, nothing a
 * file system or a shell treats specially.
 */
const THREAD_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/;

const RULE =
  "A thread id is 1 to 128 letters, digits, '_' or '-', starting with a letter or digit.";

export function isPlainThreadId(value: string): boolean {
  return THREAD_ID_PATTERN.test(value);
}

/** Commander's parser for `--thread-id` and `--resume`: a usage error (exit code 2) otherwise. */
export function parseThreadId(value: string): string {
  if (!isPlainThreadId(value)) throw new InvalidArgumentError(RULE);
  return value;
}
