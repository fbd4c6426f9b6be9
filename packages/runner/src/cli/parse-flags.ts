import { type ParseArgsConfig, parseArgs } from 'node:util';
import type { InvalidArgumentError } from '@skein/spec';

/**
 * Node's `parseArgs`, its own parse errors (an unknown flag, a missing value) made the command's
 * `InvalidArgumentError` by `invalid`.
 */
export function parseFlags<T extends ParseArgsConfig>(
  config: T,
  invalid: (flag: string, problem: string) => InvalidArgumentError,
): ReturnType<typeof parseArgs<T>> {
  try {
    return parseArgs(config);
  } catch (error) {
    throw invalid('arguments', error instanceof Error ? error.message : String(error));
  }
}
