import { SkeinEmitter, type ToolExecutionContext } from '@skein/core';

/** A real execution context, as the engine builds one, for calling a tool's `execute` directly. */
export function toolContext(overrides: Partial<ToolExecutionContext> = {}): ToolExecutionContext {
  return {
    threadId: 'thread-1',
    nodeId: 'reply',
    toolCallId: 'call-1',
    signal: new AbortController().signal,
    variables: {},
    emitter: new SkeinEmitter(),
    ...overrides,
  };
}
