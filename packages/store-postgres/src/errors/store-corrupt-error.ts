import { SkeinError } from '@skein/spec';

/**
 * Stored rows contradict each other or no longer parse (someone edited the tables by hand, or a
 * checkpoint covers more messages than are stored). Nothing is changed by the refusal.
 */
export class StoreCorruptError extends SkeinError<'STORE_CORRUPT'> {
  static override readonly errorName = 'StoreCorruptError';
  readonly schema: string;
  readonly problem: string;

  constructor(
    schema: string,
    problem: string,
    options: { cause?: unknown; details?: Record<string, unknown> } = {},
  ) {
    super('STORE_CORRUPT', `Postgres checkpoint schema "${schema}" is corrupt: ${problem}`, {
      cause: options.cause,
      details: { schema, problem, ...options.details },
    });
    this.schema = schema;
    this.problem = problem;
  }
}
