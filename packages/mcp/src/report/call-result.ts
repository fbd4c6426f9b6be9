import { type CallToolResult, ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { SkeinError } from '@skein/spec';
import { McpCallError } from '../errors/mcp-call-error.js';
import { outputParts } from './output-parts.js';
import { partBlock } from './part-block.js';
import { reportText, trippedText } from './report-text.js';
import type { ThreadReport } from './thread-report.js';

/**
 * A completed thread whose output says it is an error, shaped as an MCP tool result is
 * (`{ content, isError: true }`: what a TOOL node's output is when its tool failed): its
 * `content` when that is text, else undefined.
 */
function errorOutputText(report: ThreadReport): string | undefined {
  if (report.status !== 'COMPLETED') return undefined;
  const output = report.output as { content?: unknown; isError?: unknown } | null | undefined;
  if (typeof output !== 'object' || output === null || output.isError !== true) return undefined;
  return typeof output.content === 'string' ? output.content : '';
}

// A completed thread whose output names parts answers with them as content blocks (the model
// sees the image), one whose output is an error with its text; any other report is one text
// block, as before parts.
function reportContent(report: ThreadReport): CallToolResult['content'] {
  const parts = report.status === 'COMPLETED' ? outputParts(report.output) : undefined;
  const home = `skein://threads/${encodeURIComponent(report.threadId)}`;
  if (parts) return parts.map((part, i) => partBlock(part, home, i));
  const error = errorOutputText(report);
  if (error) return [{ type: 'text', text: error }];
  return [{ type: 'text', text: reportText(report) }];
}

/**
 * A result about a thread: its report as structured content and as content blocks. `isError` when the
 * call ran the thread and it did not get anywhere (FAILED, CANCELLED), or it completed with an
 * output that is an error (`{ content, isError: true }`); looking at such a thread with
 * `get_thread` is no error.
 */
export function reportResult(report: ThreadReport, ranIt: boolean): CallToolResult {
  const failed =
    ranIt &&
    (report.status === 'FAILED' ||
      report.status === 'CANCELLED' ||
      errorOutputText(report) !== undefined);
  return {
    content: reportContent(report),
    structuredContent: report as unknown as Record<string, unknown>,
    ...(failed ? { isError: true } : {}),
  };
}

/**
 * `resume_thread` on a thread a guardrail stopped: refused before anything runs (a retry must not
 * slip past the tripwire), typed `GUARDRAIL_TRIPPED`, with the report (its `error.guardrail`) as
 * structured content. Undefined for any other thread.
 */
export function trippedRefusal(report: ThreadReport): CallToolResult | undefined {
  const trip = report.status === 'FAILED' ? report.error?.guardrail : undefined;
  if (!trip) return undefined;
  return {
    content: [{ type: 'text', text: trippedText(report.threadId, trip) }],
    structuredContent: report as unknown as Record<string, unknown>,
    isError: true,
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
