import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { WorkflowModuleError } from '../errors/workflow-module-error.js';
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

/** Imports a workflow module and makes its `DatasetWorkflow` with the run's context. */
export async function loadWorkflowModule(
  path: string,
  context: RunContext,
): Promise<DatasetWorkflow> {
  const file = resolve(path);
  if (!existsSync(file)) throw new WorkflowModuleError(path, 'no such file');
  let loaded: Record<string, unknown>;
  try {
    loaded = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
  } catch (error) {
    const hint = /\.[mc]?ts$/.test(file) ? ' (a TypeScript module needs node --import tsx)' : '';
    const reason = error instanceof Error ? error.message : String(error);
    throw new WorkflowModuleError(path, `could not be imported${hint}: ${reason}`, error);
  }
  const exported = (loaded.default ?? loaded.workflow) as DatasetWorkflowModule | undefined;
  if (exported === undefined)
    throw new WorkflowModuleError(path, 'has no default export and no export named "workflow"');
  const workflow = typeof exported === 'function' ? await exported(context) : exported;
  if (!isWorkflow(workflow))
    throw new WorkflowModuleError(path, 'must give { engine: SkeinEngine, workflowId: string, … }');
  return workflow;
}
