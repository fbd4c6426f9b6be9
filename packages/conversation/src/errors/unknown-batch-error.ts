import { SkeinError } from '@skein/spec';

/** A batch number that does not name an existing batch. */
export class UnknownBatchError extends SkeinError<'UNKNOWN_BATCH'> {
  static override readonly errorName = 'UnknownBatchError';
  /** The batch as given (it may not even be a number). */
  readonly batch: unknown;
  readonly batchCount: number;

  constructor(batch: unknown, batchCount: number) {
    super(
      'UNKNOWN_BATCH',
      `Batch ${String(batch)} does not exist; batches are numbered 0..${batchCount - 1}`,
      { details: { batch, batchCount } },
    );
    this.batch = batch;
    this.batchCount = batchCount;
  }
}
