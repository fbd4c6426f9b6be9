import { SkeinError } from './skein-error.js';

/** A value handed to `ConversationManager.restore` that is not a valid snapshot. */
export class InvalidSnapshotError extends SkeinError {
  readonly field: string;

  constructor(field: string, problem: string) {
    super('INVALID_SNAPSHOT', `Invalid conversation snapshot at ${field}: ${problem}`, {
      details: { field, problem },
    });
    this.field = field;
  }
}
