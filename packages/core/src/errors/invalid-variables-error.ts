import { SkeinError } from '@skein/spec';

/** Initial variables that do not match the workflow's variables schema. */
export class InvalidVariablesError extends SkeinError<'INVALID_VARIABLES'> {
  static override readonly errorName = 'InvalidVariablesError';
  readonly workflowId: string;
  /** What the schema check found, as one line of text. */
  readonly problems: string;

  constructor(workflowId: string, problems: string) {
    super(
      'INVALID_VARIABLES',
      `Variables for workflow "${workflowId}" do not match its schema: ${problems}`,
      { details: { workflowId, problems } },
    );
    this.workflowId = workflowId;
    this.problems = problems;
  }
}
