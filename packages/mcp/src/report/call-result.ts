import { type CallToolResult, ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { SkeinError } from '@skein/spec';
import { McpCallError } from '../errors/mcp-call-error.js';
import { reportText } from './report-text.js';
import type { ThreadReport } from './thread-report.js';

/**
 * A result about a thread: its report as structured content and as text. `isError` when the
 * call ran the thread and it did not get anywhere (FAILED, CANCELLED); looking at such a thread
 * with `get_thread` is no error.
 */
export function reportResult(report: ThreadReport, ranIt: boolean): CallToolResult {
  const failed = ranIt && (report.status === 'FAILED' || report.status === 'CANCELLED');
  return {
    content: [{ type: 'text', text: reportText(report) }],
    structuredContent: report as unknown as Record<string, unknown>,
    ...(failed ? { isError: true } : {}),
  };
}

/**
 * How a refused or failed call is answered. An unknown tool is a JSON-RPC error (-32602), as
 * the MCP spec asks; everything else is a tool result with `isError`, its text `CODE: message`,
 * so a model reads what went wrong and can correct its call.
 */
export function errorResult(error: unknown): CallToolResult {
  if (McpCallError.isInstance(error) && error.code === 'UNKNOWN_TOOL')
    throw new McpError(ErrorCode.InvalidParams, error.message);
  const text = SkeinError.isInstance(error)
    ? `${error.code}: ${error.message}`
    : `INTERNAL: ${error instanceof Error ? error.message : String(error)}`;
  return { content: [{ type: 'text', text }], isError: true };
}
