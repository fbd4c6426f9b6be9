import { SkeinError } from '@skein/spec';

/**
 * The file is not a readable SQLite database (random bytes, a truncated file, a damaged page), or
 * a stored row no longer parses. The file is left exactly as it was found.
 */
export class StoreCorruptError extends SkeinError<'STORE_CORRUPT'> {
  static override readonly errorName = 'StoreCorruptError';
  readonly filename: string;
  readonly problem: string;

  constructor(
    filename: string,
    problem: string,
    options: { cause?: unknown; details?: Record<string, unknown> } = {},
  ) {
    super('STORE_CORRUPT', `Checkpoint database ${filename} is corrupt: ${problem}`, {
      cause: options.cause,
      details: { filename, problem, ...options.details },
    });
    this.filename = filename;
    this.problem = problem;
  }
}
