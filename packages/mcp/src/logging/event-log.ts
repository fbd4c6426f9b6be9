import type { LoggingLevel } from '@modelcontextprotocol/sdk/types.js';
import type { ThreadEvent } from '@skein/core';

/** One engine event as an MCP log message: its level and what `notifications/message` carries. */
export interface LogEntry {
  readonly level: LoggingLevel;
  readonly data: Readonly<Record<string, unknown>>;
}

function where(event: { readonly nodeId?: string; readonly branchPath?: string }): string {
  if (event.nodeId === undefined) return '';
  return event.branchPath === undefined
    ? ` at ${event.nodeId}`
    : ` at ${event.branchPath}: ${event.nodeId}`;
}

/** What a guardrail's verdict did, in words: `tripped on pin`, `refused a call to charge`. */
function verdictWords(action: 'trip' | 'refuse' | 'redact', toolName: string | undefined): string {
  const tool = toolName ?? 'a tool';
  if (action === 'refuse') return `refused a call to ${tool}`;
  if (action === 'redact') return `redacted the result of ${tool}`;
  return toolName === undefined ? 'tripped' : `tripped on ${toolName}`;
}

/**
 * The log entry of a thread event, or undefined for the events a log leaves out (tokens, messages
 * and checkpoints: the transcript and the store hold them). A node failed or a thread failed is an
 * error, and so is a guardrail's trip; a retry, a tool's error, a guardrail's refusal or
 * redaction, or a cancellation a warning; a pause a notice; a node's end and a
 * thread's start and end info; a node's start and a tool call debug. The message is a line a person
 * reads; the fields beside it (`event`, `threadId`, `nodeId`, `code`) are for a program.
 */
export function eventLogEntry(event: ThreadEvent): LogEntry | undefined {
  const base = { event: event.type, threadId: event.threadId };
  switch (event.type) {
    case 'thread:started':
      return { level: 'info', data: { ...base, message: `thread ${event.threadId} started` } };
    case 'thread:completed':
      return { level: 'info', data: { ...base, message: `thread ${event.threadId} completed` } };
    case 'thread:paused':
      return {
        level: 'notice',
        data: { ...base, message: `thread ${event.threadId} paused${where(event)}` },
      };
    case 'thread:cancelled':
      return { level: 'warning', data: { ...base, message: `thread ${event.threadId} cancelled` } };
    case 'thread:failed':
      return {
        level: 'error',
        data: {
          ...base,
          code: event.error?.code,
          message: `thread ${event.threadId} failed: ${event.error?.message ?? 'no reason given'}`,
        },
      };
    case 'node:started':
      return {
        level: 'debug',
        data: { ...base, nodeId: event.nodeId, message: `node started${where(event)}` },
      };
    case 'node:completed':
      return {
        level: 'info',
        data: { ...base, nodeId: event.nodeId, message: `node completed${where(event)}` },
      };
    case 'node:failed':
      return {
        level: 'error',
        data: {
          ...base,
          nodeId: event.nodeId,
          code: event.error.code,
          message: `node failed${where(event)}: ${event.error.message}`,
        },
      };
    case 'tool:call':
      return {
        level: 'debug',
        data: {
          ...base,
          nodeId: event.nodeId,
          message: `tool ${event.name} called${where(event)}`,
        },
      };
    case 'tool:error':
      return {
        level: 'warning',
        data: {
          ...base,
          nodeId: event.nodeId,
          code: event.code,
          message: `tool ${event.name} failed${where(event)}: ${event.message}`,
        },
      };
    case 'guardrail:verdict':
      return {
        level: event.action === 'trip' ? 'error' : 'warning',
        data: {
          ...base,
          nodeId: event.nodeId,
          guardrail: event.guardrail,
          stage: event.stage,
          action: event.action,
          message: `guardrail ${event.guardrail} ${verdictWords(event.action, event.toolName)}${where(event)}${event.reason ? `: ${event.reason}` : ''}`,
        },
      };
    case 'warning':
      return {
        level: 'warning',
        data: { ...base, code: event.code, message: `${event.message}${where(event)}` },
      };
    default:
      return undefined;
  }
}
