import { SkeinError } from '@skein/spec';

/** A method was called after `close()`. */
export class StoreClosedError extends SkeinError<'STORE_CLOSED'> {
  static override readonly errorName = 'StoreClosedError';
  readonly filename: string;
  /** What was asked of the closed store. */
  readonly operation: string;

  constructor(filename: string, operation: string) {
    super(
      'STORE_CLOSED',
      `Checkpoint database ${filename} was closed; ${operation} needs a store opened again`,
      { details: { filename, operation } },
    );
    this.filename = filename;
    this.operation = operation;
  }
}
