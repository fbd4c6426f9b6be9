import { SkeinError } from '@skein/spec';

/** A method was called after `close()`. */
export class StoreClosedError extends SkeinError<'STORE_CLOSED'> {
  static override readonly errorName = 'StoreClosedError';
  /** The PostgreSQL schema the store works in. */
  readonly schema: string;
  /** What was asked of the closed store. */
  readonly operation: string;

  constructor(schema: string, operation: string) {
    super(
      'STORE_CLOSED',
      `Postgres checkpoint store (schema "${schema}") was closed; ${operation} needs a new store`,
      { details: { schema, operation } },
    );
    this.schema = schema;
    this.operation = operation;
  }
}
