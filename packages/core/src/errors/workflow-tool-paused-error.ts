import { SkeinError } from '@skein/spec';

/** A workflow used as a tool stopped to wait for input, which a tool call cannot do. */
export class WorkflowToolPausedError extends SkeinError<'WORKFLOW_TOOL_PAUSED'> {
  static override readonly errorName = 'WorkflowToolPausedError';
  readonly workflowId: string;
  readonly childThreadId: string;

  constructor(workflowId: string, childThreadId: string) {
    super(
      'WORKFLOW_TOOL_PAUSED',
      `Workflow "${workflowId}" used as a tool paused (thread ${childThreadId}); a workflow tool must run to its end without user input or approvals`,
      { details: { workflowId, childThreadId } },
    );
    this.workflowId = workflowId;
    this.childThreadId = childThreadId;
  }
}
