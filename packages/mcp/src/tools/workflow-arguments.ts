import { McpCallError } from '../errors/mcp-call-error.js';
import { MESSAGE_ARGUMENT, type ToolInput } from './input-schema.js';

export interface WorkflowArguments {
  readonly variables: Readonly<Record<string, unknown>>;
  /** The thread's first user message. */
  readonly message?: string;
}

/**
 * A workflow tool's arguments split into the thread's variables and its first message. The
 * variables are checked against the workflow's schema by the engine when the thread is built.
 */
export function workflowArguments(
  tool: string,
  input: ToolInput,
  args: unknown,
): WorkflowArguments {
  if (args === undefined) return { variables: {} };
  if (typeof args !== 'object' || args === null || Array.isArray(args))
    throw McpCallError.invalidArguments(tool, '', 'the arguments must be an object');
  if (!input.takesMessage) return { variables: { ...args } };
  const { [MESSAGE_ARGUMENT]: message, ...variables } = args as Record<string, unknown>;
  if (message !== undefined && typeof message !== 'string')
    throw McpCallError.invalidArguments(
      tool,
      MESSAGE_ARGUMENT,
      `must be a string, got ${typeof message}`,
    );
  return message === undefined ? { variables } : { variables, message };
}
