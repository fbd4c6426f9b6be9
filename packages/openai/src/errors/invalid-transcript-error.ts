import { SkeinError } from '@skein/spec';

/** An exported transcript that `restoreTranscript()` cannot read back. */
export class InvalidTranscriptError extends SkeinError<'INVALID_TRANSCRIPT'> {
  static override readonly errorName = 'InvalidTranscriptError';
  readonly path: string;

  constructor(path: string, problem: string) {
    super('INVALID_TRANSCRIPT', `Transcript ${path}: ${problem}`, { details: { path, problem } });
    this.path = path;
  }
}
