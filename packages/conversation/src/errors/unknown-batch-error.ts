import { SkeinError } from './skein-error.js';

/** A batch number that does not name an existing batch. */
export class UnknownBatchError extends SkeinError {
  constructor(batch: unknown, batchCount: number) {
    super(
      'UNKNOWN_BATCH',
      `Batch ${String(batch)} does not exist; batches are numbered 0..${batchCount - 1}`,
      { details: { batch, batchCount } },
    );
  }
}
