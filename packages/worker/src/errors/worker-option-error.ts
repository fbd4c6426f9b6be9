import { SkeinError } from '@skein/spec';

/**
 * An option of `createWorker`, `createWorkerClient`, `limitConcurrency` or `createRateBudget` is
 * out of range.
 */
export class WorkerOptionError extends SkeinError<'WORKER_INVALID_OPTION'> {
  static override readonly errorName = 'WorkerOptionError';
  readonly option: string;
  readonly value: unknown;

  constructor(option: string, value: unknown, expected: string) {
    super(
      'WORKER_INVALID_OPTION',
      `Option ${option} is ${JSON.stringify(value) ?? String(value)}; expected ${expected}`,
      { details: { option, value, expected } },
    );
    this.option = option;
    this.value = value;
  }
}
