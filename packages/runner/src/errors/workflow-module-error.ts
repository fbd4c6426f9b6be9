import { SkeinError } from '@skein/spec';

/**
 * `WORKFLOW_MODULE_INVALID`: the module could not be loaded or does not export a dataset
 * workflow. `WORKFLOW_MODULE_FAILED`: its code threw (the factory making the workflow, or its
 * `close()`); the error it threw is the `cause`.
 */
export type WorkflowModuleErrorCode = 'WORKFLOW_MODULE_INVALID' | 'WORKFLOW_MODULE_FAILED';

/** `skein run <module>`: the workflow module could not give a workflow, or failed while closing. */
export class WorkflowModuleError extends SkeinError<WorkflowModuleErrorCode> {
  static override readonly errorName = 'WorkflowModuleError';
  readonly module: string;

  constructor(
    module: string,
    problem: string,
    cause?: unknown,
    code: WorkflowModuleErrorCode = 'WORKFLOW_MODULE_INVALID',
  ) {
    super(code, `Workflow module ${module}: ${problem}`, {
      details: { module },
      ...(cause === undefined ? {} : { cause }),
    });
    this.module = module;
  }
}
