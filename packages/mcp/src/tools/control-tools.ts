import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { McpCallError } from '../errors/mcp-call-error.js';
import { checkThreadId } from '../threads/thread-id.js';
import { THREAD_REPORT_SCHEMA } from './output-schema.js';
import { GET_THREAD_TOOL, RESUME_TOOL } from './tool-names.js';

const THREAD_ID_PROPERTY = {
  type: 'string',
  description: 'The thread id a workflow tool returned',
} as const;

/** The server's own tools: answer a paused thread or run a stopped one on, and look at a thread. */
export const CONTROL_TOOL_LIST: readonly Tool[] = [
  {
    name: RESUME_TOOL,
    title: 'Resume a thread',
    description:
      'Continues a workflow thread. A PAUSED thread takes `input`: the answer text when it waits for user input; {"approvals": {"<toolCallId>": true | false | {"approved": false, "reason": "…"}}} when it waits for tool approvals; {"branch": "<path>", "input": …} when its branches wait. A FAILED or CANCELLED thread takes no input and runs on from where it stopped, except a thread a guardrail stopped (error GUARDRAIL_TRIPPED): it never runs again.',
    inputSchema: {
      type: 'object',
      properties: {
        threadId: THREAD_ID_PROPERTY,
        input: { description: 'What the paused thread waits for (see the description)' },
      },
      required: ['threadId'],
      additionalProperties: false,
    },
    outputSchema: THREAD_REPORT_SCHEMA as unknown as Tool['outputSchema'],
  },
  {
    name: GET_THREAD_TOOL,
    title: 'Look at a thread',
    description:
      'Reports a workflow thread: its status, its output once completed, its error once failed, and what it waits for when paused.',
    inputSchema: {
      type: 'object',
      properties: { threadId: THREAD_ID_PROPERTY },
      required: ['threadId'],
      additionalProperties: false,
    },
    outputSchema: THREAD_REPORT_SCHEMA as unknown as Tool['outputSchema'],
    annotations: { readOnlyHint: true },
  },
];

function objectArguments(tool: string, args: unknown, allowed: readonly string[]) {
  if (typeof args !== 'object' || args === null || Array.isArray(args))
    throw McpCallError.invalidArguments(tool, '', 'the arguments must be an object with threadId');
  for (const key of Object.keys(args))
    if (!allowed.includes(key))
      throw McpCallError.invalidArguments(
        tool,
        key.slice(0, 60),
        `unknown argument; expected ${allowed.join(', ')}`,
      );
  return args as Record<string, unknown>;
}

/** `resume_thread`'s arguments: the thread, and the input its pause waits for (if any). */
export function resumeArguments(args: unknown): { threadId: string; input?: unknown } {
  const given = objectArguments(RESUME_TOOL, args, ['threadId', 'input']);
  const threadId = checkThreadId(given.threadId, RESUME_TOOL);
  return given.input === undefined ? { threadId } : { threadId, input: given.input };
}

/** `get_thread`'s arguments. */
export function getThreadArguments(args: unknown): { threadId: string } {
  const given = objectArguments(GET_THREAD_TOOL, args, ['threadId']);
  return { threadId: checkThreadId(given.threadId, GET_THREAD_TOOL) };
}
