import { SkeinError, type SkeinErrorOptions } from '@skein/spec';

/**
 * - `UNKNOWN_TOOL`: the client called a tool this server does not offer (`tool`). Answered as a
 *   JSON-RPC error (-32602): the request itself is wrong, as the MCP spec says for unknown tools.
 * - `INVALID_ARGUMENTS`: an argument is missing, of the wrong kind or fails the workflow's variable
 *   schema (`tool`, `path`: the argument, e.g. `threadId` or `variables/tier`).
 * - `ARGUMENTS_TOO_LARGE`: the arguments, as JSON, are over the server's `maxArgumentBytes`
 *   (`tool`, `limit`, `size`).
 * - `THREAD_NOT_FOUND`: no thread with this id that this server may show: none stored, a branch,
 *   or one of a workflow it does not offer (`threadId`).
 * - `THREAD_NOT_RESUMABLE`: the thread is there but cannot go on now: it runs, or it waits and no
 *   input was given (`threadId`, `threadStatus`).
 *
 * Every code but `UNKNOWN_TOOL` is answered as a tool result with `isError: true`, so a model
 * calling the tool reads what was wrong and can correct itself.
 */
export type McpCallErrorCode =
  | 'UNKNOWN_TOOL'
  | 'INVALID_ARGUMENTS'
  | 'ARGUMENTS_TOO_LARGE'
  | 'THREAD_NOT_FOUND'
  | 'THREAD_NOT_RESUMABLE';

export interface McpCallErrorFacts {
  readonly tool?: string;
  readonly path?: string;
  readonly limit?: number;
  readonly size?: number;
  readonly threadId?: string;
  readonly threadStatus?: string;
}

/** A tool call this MCP server refuses, before any thread is touched. Never retryable as it is. */
export class McpCallError<
  Code extends McpCallErrorCode = McpCallErrorCode,
> extends SkeinError<Code> {
  static override readonly errorName = 'McpCallError';
  declare readonly tool?: string;
  declare readonly path?: string;
  declare readonly limit?: number;
  declare readonly size?: number;
  declare readonly threadId?: string;
  declare readonly threadStatus?: string;

  constructor(
    code: Code,
    message: string,
    facts: McpCallErrorFacts = {},
    options: SkeinErrorOptions = {},
  ) {
    super(code, message, { ...options, facts });
  }

  static unknownTool(tool: string, offered: readonly string[]): McpCallError<'UNKNOWN_TOOL'> {
    const shown = tool.length > 80 ? `${tool.slice(0, 80)}…` : tool;
    return new McpCallError(
      'UNKNOWN_TOOL',
      `No tool named "${shown}"; this server offers ${offered.join(', ') || 'none'}`,
      { tool: shown },
    );
  }

  static invalidArguments(
    tool: string,
    path: string,
    reason: string,
    cause?: unknown,
  ): McpCallError<'INVALID_ARGUMENTS'> {
    return new McpCallError(
      'INVALID_ARGUMENTS',
      `Invalid arguments for ${tool}: ${path === '' ? '' : `${path}: `}${reason}`,
      { tool, path },
      cause === undefined ? {} : { cause },
    );
  }

  static tooLarge(tool: string, size: number, limit: number): McpCallError<'ARGUMENTS_TOO_LARGE'> {
    return new McpCallError(
      'ARGUMENTS_TOO_LARGE',
      `The arguments of ${tool} are ${size} bytes of JSON, over this server's limit of ${limit}`,
      { tool, size, limit },
    );
  }

  static threadNotFound(threadId: string): McpCallError<'THREAD_NOT_FOUND'> {
    return new McpCallError(
      'THREAD_NOT_FOUND',
      `No thread "${threadId}" that this server can show: it was never started here, or it is not kept (a server without a store forgets threads when it stops)`,
      { threadId },
    );
  }

  static notResumable(
    threadId: string,
    threadStatus: string,
    reason: string,
  ): McpCallError<'THREAD_NOT_RESUMABLE'> {
    return new McpCallError(
      'THREAD_NOT_RESUMABLE',
      `Thread "${threadId}" (${threadStatus}) cannot go on: ${reason}`,
      { threadId, threadStatus },
    );
  }
}
