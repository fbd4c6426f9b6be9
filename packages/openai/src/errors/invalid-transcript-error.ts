import { SkeinError } from '@skein/conversation';

/** An exported transcript that `restoreTranscript()` cannot read back. */
export class InvalidTranscriptError extends SkeinError {
  readonly path: string;

  constructor(path: string, problem: string) {
    super('INVALID_TRANSCRIPT', `Transcript ${path}: ${problem}`, { details: { path, problem } });
    this.path = path;
  }
}
