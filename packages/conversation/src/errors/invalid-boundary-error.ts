import { SkeinError } from '@skein/spec';

/** A batch boundary that is not a storage position `0..storedCount`. */
export class InvalidBoundaryError extends SkeinError<'INVALID_BOUNDARY'> {
  static override readonly errorName = 'InvalidBoundaryError';
  /** The boundary as given (it may not even be a number). */
  readonly boundary: unknown;
  readonly storedCount: number;

  constructor(boundary: unknown, storedCount: number) {
    super(
      'INVALID_BOUNDARY',
      `Batch boundary ${String(boundary)} is outside the stored range 0..${storedCount} (a boundary is a storage position)`,
      { details: { boundary, storedCount } },
    );
    this.boundary = boundary;
    this.storedCount = storedCount;
  }
}
