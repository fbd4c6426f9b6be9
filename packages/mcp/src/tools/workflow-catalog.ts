import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { SkeinEngine } from '@skein/core';
import { InvalidArgumentError } from '@skein/spec';
import { type ToolInput, toolInputSchema } from './input-schema.js';
import { THREAD_REPORT_SCHEMA } from './output-schema.js';
import { ToolNames } from './tool-names.js';

/** One offered workflow: its tool as clients list it, and how its arguments are read. */
export interface WorkflowTool {
  readonly workflowId: string;
  readonly input: ToolInput;
  readonly tool: Tool;
}

function describe(id: string, name: string | undefined, description: string | undefined): string {
  const what = description ?? name ?? `Runs the workflow "${id}".`;
  // How a paused run comes back: a model needs to know there is a second step.
  return `${what}\n\nReturns the workflow's output. If the workflow stops to wait for an answer or an approval, the result says what it waits for and gives a thread id for resume_thread.`;
}

/**
 * The workflows offered as tools, fixed when the server is made: the ids given (each must be
 * registered) or every registered workflow, each at its latest registered version.
 */
export function workflowCatalog(
  engine: SkeinEngine,
  ids: readonly string[] | undefined,
): { names: ToolNames; tools: ReadonlyMap<string, WorkflowTool> } {
  if (ids !== undefined && (!Array.isArray(ids) || ids.some((id) => typeof id !== 'string')))
    throw new InvalidArgumentError('workflows', 'workflows must be an array of workflow ids');
  const chosen = [...new Set(ids ?? engine.workflows.list().map((w) => w.id))];
  for (const id of chosen)
    if (!engine.workflows.has(id))
      throw new InvalidArgumentError(
        'workflows',
        `Workflow "${id}" is not registered with the engine; register it before making the server`,
      );
  const names = new ToolNames(chosen);
  const tools = new Map<string, WorkflowTool>();
  for (const id of chosen) {
    const definition = engine.workflows.get(id).definition;
    const input = toolInputSchema(id, definition.variables);
    const name = names.nameOf(id);
    tools.set(name, {
      workflowId: id,
      input,
      tool: {
        name,
        ...(definition.name === undefined ? {} : { title: definition.name }),
        description: describe(id, definition.name, definition.description),
        inputSchema: input.schema as Tool['inputSchema'],
        outputSchema: THREAD_REPORT_SCHEMA as unknown as Tool['outputSchema'],
      },
    });
  }
  return { names, tools };
}
