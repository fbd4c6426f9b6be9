import { SkeinError } from './skein-error.js';

/** A batch boundary outside the visible range `0..visibleCount`. */
export class InvalidBoundaryError extends SkeinError {
  constructor(boundary: unknown, visibleCount: number) {
    super(
      'INVALID_BOUNDARY',
      `Batch boundary ${String(boundary)} is outside the visible range 0..${visibleCount}`,
      { details: { boundary, visibleCount } },
    );
  }
}
