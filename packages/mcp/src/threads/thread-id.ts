import { randomUUID } from 'node:crypto';
import { McpCallError } from '../errors/mcp-call-error.js';

// The form `randomUUID` gives: 122 random bits, so an id can be handed to a client as the key to
// its thread, and nobody else finds the thread by guessing.
const THREAD_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** A new thread id: a random UUID. */
export function newThreadId(): string {
  return randomUUID();
}

/** Whether `value` is an id this server could have handed out. */
export function isThreadId(value: unknown): value is string {
  return typeof value === 'string' && THREAD_ID.test(value);
}

/** `value` when it is an id this server could have handed out; INVALID_ARGUMENTS otherwise. */
export function checkThreadId(value: unknown, tool: string): string {
  if (!isThreadId(value))
    throw McpCallError.invalidArguments(
      tool,
      'threadId',
      `expected the thread id a workflow tool returned (a lowercase UUID), got ${
        typeof value === 'string'
          ? `"${value.slice(0, 60)}${value.length > 60 ? '…' : ''}"`
          : typeof value
      }`,
    );
  return value;
}
