import { SkeinError } from './skein-error.js';

/** An INSERT or REPLACE position that does not name a visible slot. */
export class PositionNotVisibleError extends SkeinError {
  constructor(operation: string, position: unknown, allowed: string) {
    super(
      'POSITION_NOT_VISIBLE',
      `${operation} position ${String(position)} is not visible; allowed: ${allowed}`,
      { details: { operation, position, allowed } },
    );
  }
}
