import { SkeinError } from '@skein/spec';

/** The child thread of a SUBWORKFLOW node (or of a workflow tool) failed. */
export class SubworkflowFailedError extends SkeinError<'SUBWORKFLOW_FAILED'> {
  static override readonly errorName = 'SubworkflowFailedError';
  readonly workflowId: string;
  readonly childThreadId: string;
  readonly causeCode: string;

  constructor(workflowId: string, childThreadId: string, cause: { code: string; message: string }) {
    super(
      'SUBWORKFLOW_FAILED',
      `Workflow "${workflowId}" run as child thread ${childThreadId} failed with ${cause.code}: ${cause.message}`,
      { details: { workflowId, childThreadId, causeCode: cause.code } },
    );
    this.workflowId = workflowId;
    this.childThreadId = childThreadId;
    this.causeCode = cause.code;
  }
}
