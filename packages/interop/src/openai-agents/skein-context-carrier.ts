import type { ToolExecutionContext } from '@skein/core';
import type { ToolThreadContext } from '@skein/spec';

// Carried on the RunContext a Skein-converted FunctionTool is invoked with, so a Skein tool that
// went through a FunctionTool and back still sees its thread (id, variables, emitter, call id) and
// reports errors as errors instead of as text.
const SKEIN_CONTEXT = Symbol.for('skein.interop.thread-context');

interface Carrier {
  [SKEIN_CONTEXT]?: ToolThreadContext | ToolExecutionContext;
}

export function attachSkeinContext<T extends object>(
  runContext: T,
  context: ToolThreadContext | ToolExecutionContext,
): T {
  // Not enumerable: RunContext.toJSON and serialised run states must not pick it up.
  Object.defineProperty(runContext, SKEIN_CONTEXT, { value: context, enumerable: false });
  return runContext;
}

export function skeinContextOf(
  runContext: unknown,
): ToolThreadContext | ToolExecutionContext | undefined {
  if (typeof runContext !== 'object' || runContext === null) return undefined;
  return (runContext as Carrier)[SKEIN_CONTEXT];
}

export function isExecutionContext(
  context: ToolThreadContext | ToolExecutionContext | undefined,
): context is ToolExecutionContext {
  return context !== undefined && 'toolCallId' in context && 'emitter' in context;
}
