import { SkeinError } from '@skein/spec';

/** An INSERT or REPLACE position that does not name a visible slot. */
export class PositionNotVisibleError extends SkeinError<'POSITION_NOT_VISIBLE'> {
  static override readonly errorName = 'PositionNotVisibleError';
  /** `INSERT` or `REPLACE`. */
  readonly operation: string;
  /** The position as given (it may not even be a number). */
  readonly position: unknown;
  /** The positions that would have been accepted, e.g. `0..3`. */
  readonly allowed: string;

  constructor(operation: string, position: unknown, allowed: string) {
    super(
      'POSITION_NOT_VISIBLE',
      `${operation} position ${String(position)} is not visible; allowed: ${allowed}`,
      { details: { operation, position, allowed } },
    );
    this.operation = operation;
    this.position = position;
    this.allowed = allowed;
  }
}
