import { SkeinError } from '@skein/conversation';

/** A method was called after `close()`. */
export class StoreClosedError extends SkeinError {
  readonly filename: string;

  constructor(filename: string, operation: string) {
    super(
      'STORE_CLOSED',
      `Checkpoint database ${filename} was closed; ${operation} needs a store opened again`,
      { details: { filename, operation } },
    );
    this.filename = filename;
  }
}
