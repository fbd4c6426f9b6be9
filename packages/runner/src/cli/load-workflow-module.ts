import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { SkeinError } from '@skein/spec';
import { RunnerError } from '../errors/runner-error.js';
import type { DatasetWorkflow, DatasetWorkflowModule } from '../run/dataset-workflow.js';
import type { RunContext } from '../run/run-options.js';

function isWorkflow(value: unknown): value is DatasetWorkflow {
  if (typeof value !== 'object' || value === null) return false;
  const { engine, workflowId } = value as Partial<DatasetWorkflow>;
  return (
    typeof workflowId === 'string' &&
    typeof (engine as { createThread?: unknown } | undefined)?.createThread === 'function'
  );
}

/**
 * Imports a workflow module and makes its `DatasetWorkflow` with the run's context. Throws
 * `RunnerError`: `WORKFLOW_MODULE_INVALID` when the module cannot be imported or gives no
 * workflow, `WORKFLOW_MODULE_FAILED` (the error as `cause`) when its workflow function throws.
 */
export async function loadWorkflowModule(
  path: string,
  context: RunContext,
): Promise<DatasetWorkflow> {
  const file = resolve(path);
  if (!existsSync(file)) throw RunnerError.workflowModule(path, 'no such file');
  let loaded: Record<string, unknown>;
  try {
    loaded = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
  } catch (error) {
    const hint = /\.[mc]?ts$/.test(file) ? ' (a TypeScript module needs node --import tsx)' : '';
    const reason = error instanceof Error ? error.message : String(error);
    throw RunnerError.workflowModule(path, `could not be imported${hint}: ${reason}`, error);
  }
  const exported = (loaded.default ?? loaded.workflow) as DatasetWorkflowModule | undefined;
  if (exported === undefined)
    throw RunnerError.workflowModule(path, 'has no default export and no export named "workflow"');
  let workflow: unknown;
  try {
    workflow = typeof exported === 'function' ? await exported(context) : exported;
  } catch (error) {
    const reason = SkeinError.isInstance(error)
      ? `${error.code}: ${error.message}`
      : error instanceof Error
        ? error.message
        : String(error);
    throw RunnerError.workflowModule(
      path,
      `its workflow function threw: ${reason}`,
      error,
      'WORKFLOW_MODULE_FAILED',
    );
  }
  if (!isWorkflow(workflow))
    throw RunnerError.workflowModule(
      path,
      'must give { engine: SkeinEngine, workflowId: string, … }',
    );
  return workflow;
}
