import { SkeinError } from '@skein/conversation';

export class WorkflowNotFoundError extends SkeinError {
  constructor(workflowId: string, version: string | undefined, known: readonly string[]) {
    super(
      'WORKFLOW_NOT_FOUND',
      `Workflow "${workflowId}"${version ? ` version "${version}"` : ''} is not registered${known.length ? ` (registered: ${known.join(', ')})` : ''}`,
      { details: { workflowId, version, known } },
    );
  }
}
