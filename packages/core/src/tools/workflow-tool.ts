import { InvalidArgumentError, type JsonSchema } from '@skein/spec';
import type { Tool } from './tool.js';

export interface WorkflowToolOptions {
  /** The name the model calls it by. */
  readonly name: string;
  readonly description: string;
  /** JSON Schema of the arguments; they become the child workflow's variables. */
  readonly parameters: JsonSchema;
  /** A registered version (default: the latest registered when called). */
  readonly version?: string;
  /** A template-free first user message for the child, made from the arguments. */
  readonly message?: (args: Readonly<Record<string, unknown>>) => string;
}

/**
 * A registered workflow as a tool an LLM node can call ("agents as tools"): the arguments are
 * validated against `parameters` like any tool's, the workflow runs as a child thread of the
 * calling node (its events carry the caller as `parentThreadId`; its token usage and tool failures
 * are added to the caller's), and its END output is the tool result.
 */
export function workflowTool(workflowId: string, options: WorkflowToolOptions): Tool {
  if (typeof workflowId !== 'string' || workflowId === '')
    throw new InvalidArgumentError(
      'workflowId',
      'workflowTool needs the id of a registered workflow',
    );
  const { name, description, parameters, version, message } = options;
  return {
    name,
    description,
    parameters,
    execute: async (args, context) => {
      if (!context.callWorkflow)
        throw new InvalidArgumentError(
          'context',
          `tool "${name}" runs workflow "${workflowId}", which needs the engine to run it (SkeinEngine or a ThreadExecutor given \`builder\`)`,
        );
      return context.callWorkflow({
        workflowId,
        ...(version === undefined ? {} : { version }),
        variables: args,
        ...(message ? { message: message(args) } : {}),
      });
    },
  };
}
