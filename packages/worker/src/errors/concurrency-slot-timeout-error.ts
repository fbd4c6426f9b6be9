import { SkeinError } from '@skein/spec';

/**
 * Every slot of a shared concurrency limit stayed taken for longer than the wait allowed. The model
 * was not called; a retry can succeed once other workers finish their calls.
 */
export class ConcurrencySlotTimeoutError extends SkeinError<'CONCURRENCY_SLOT_TIMEOUT'> {
  static override readonly errorName = 'ConcurrencySlotTimeoutError';
  readonly key: string;
  readonly max: number;
  readonly waitedMs: number;

  constructor(key: string, max: number, waitedMs: number) {
    super(
      'CONCURRENCY_SLOT_TIMEOUT',
      `All ${max} slots of concurrency limit "${key}" stayed taken for ${waitedMs} ms; the model was not called`,
      { details: { key, max, waitedMs }, retryable: true },
    );
    this.key = key;
    this.max = max;
    this.waitedMs = waitedMs;
  }
}
