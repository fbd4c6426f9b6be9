import { SkeinError } from '@skein/spec';

/**
 * A checkpoint holds a value a JSON round trip would not give back unchanged (NaN, Infinity, a
 * BigInt, a Date, a cycle, `undefined` in an array…). Storing it would change the thread, so the
 * checkpoint is refused before the transaction starts: nothing is written and the thread's
 * previous checkpoint stays the latest.
 */
export class StoreUnserializableError extends SkeinError<'STORE_UNSERIALIZABLE'> {
  static override readonly errorName = 'StoreUnserializableError';
  readonly schema: string;
  /** Where the value sits, e.g. `checkpoint.state.variables.total`. */
  readonly path: string;
  readonly reason: string;

  constructor(
    schema: string,
    checkpoint: { readonly threadId: string; readonly id: string },
    found: { readonly path: string; readonly reason: string },
    cause?: unknown,
  ) {
    super(
      'STORE_UNSERIALIZABLE',
      `Checkpoint ${checkpoint.id} of thread ${checkpoint.threadId} cannot be stored in Postgres schema "${schema}": ${found.path} is ${found.reason}; nothing was written`,
      {
        cause,
        details: {
          schema,
          threadId: checkpoint.threadId,
          checkpointId: checkpoint.id,
          path: found.path,
          reason: found.reason,
        },
      },
    );
    this.schema = schema;
    this.path = found.path;
    this.reason = found.reason;
  }
}
