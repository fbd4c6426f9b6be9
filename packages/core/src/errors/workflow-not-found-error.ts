import { SkeinError } from '@skein/spec';

export class WorkflowNotFoundError extends SkeinError<'WORKFLOW_NOT_FOUND'> {
  static override readonly errorName = 'WorkflowNotFoundError';
  readonly workflowId: string;
  readonly version?: string;
  /** The workflow ids that are registered. */
  readonly known: readonly string[];

  constructor(workflowId: string, version: string | undefined, known: readonly string[]) {
    super(
      'WORKFLOW_NOT_FOUND',
      `Workflow "${workflowId}"${version ? ` version "${version}"` : ''} is not registered${known.length ? ` (registered: ${known.join(', ')})` : ''}`,
      { details: { workflowId, version, known } },
    );
    this.workflowId = workflowId;
    if (version !== undefined) this.version = version;
    this.known = known;
  }
}
