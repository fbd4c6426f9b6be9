import { SkeinError } from './skein-error.js';

/** A batch boundary that is not a storage position `0..storedCount`. */
export class InvalidBoundaryError extends SkeinError {
  constructor(boundary: unknown, storedCount: number) {
    super(
      'INVALID_BOUNDARY',
      `Batch boundary ${String(boundary)} is outside the stored range 0..${storedCount} (a boundary is a storage position)`,
      { details: { boundary, storedCount } },
    );
  }
}
