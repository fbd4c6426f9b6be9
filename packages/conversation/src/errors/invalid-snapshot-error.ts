import { SkeinError } from '@skein/spec';

/** A value handed to `ConversationManager.restore` that is not a valid snapshot. */
export class InvalidSnapshotError extends SkeinError<'INVALID_SNAPSHOT'> {
  static override readonly errorName = 'InvalidSnapshotError';
  readonly field: string;
  readonly problem: string;

  constructor(field: string, problem: string) {
    super('INVALID_SNAPSHOT', `Invalid conversation snapshot at ${field}: ${problem}`, {
      details: { field, problem },
    });
    this.field = field;
    this.problem = problem;
  }
}
