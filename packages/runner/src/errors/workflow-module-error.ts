import { SkeinError } from '@skein/spec';

/** `skein run <module>`: the module could not be loaded or does not export a dataset workflow. */
export class WorkflowModuleError extends SkeinError<'WORKFLOW_MODULE_INVALID'> {
  static override readonly errorName = 'WorkflowModuleError';
  readonly module: string;

  constructor(module: string, problem: string, cause?: unknown) {
    super('WORKFLOW_MODULE_INVALID', `Workflow module ${module}: ${problem}`, {
      details: { module },
      ...(cause === undefined ? {} : { cause }),
    });
    this.module = module;
  }
}
