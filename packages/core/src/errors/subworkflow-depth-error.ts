import { SkeinError } from '@skein/spec';

/** Starting a child thread would nest threads deeper than the engine's `maxDepth`. */
export class SubworkflowDepthError extends SkeinError<'SUBWORKFLOW_DEPTH_EXCEEDED'> {
  static override readonly errorName = 'SubworkflowDepthError';
  readonly workflowId: string;
  readonly maxDepth: number;
  /** The branch path of the thread that tried to start it. */
  readonly branchPath: string;

  constructor(workflowId: string, maxDepth: number, branchPath: string) {
    super(
      'SUBWORKFLOW_DEPTH_EXCEEDED',
      `Starting workflow "${workflowId}" at ${branchPath || 'the top-level thread'} would nest child threads more than ${maxDepth} deep (does a workflow reach itself?)`,
      { details: { workflowId, maxDepth, branchPath } },
    );
    this.workflowId = workflowId;
    this.maxDepth = maxDepth;
    this.branchPath = branchPath;
  }
}
