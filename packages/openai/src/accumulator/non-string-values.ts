import { findNonJsonValue } from '@skein/spec';
import type { ToolCallState } from './tool-call-state.js';
import type { AccumulatorWarning } from './types.js';

/**
 * Arguments sent as a JSON value instead of a string (GLM-4.5): serialised once and an identical
 * repeat dropped. Returns the text to append (empty for nothing) and, the first time, a warning,
 * so the odd provider is visible. A value JSON cannot carry marks the call instead.
 */
export function objectArguments(
  call: ToolCallState,
  value: unknown,
  where: string,
): { readonly delta: string; readonly warning?: AccumulatorWarning } {
  const problem = findNonJsonValue(value, 'arguments');
  if (problem !== undefined) {
    call.argumentsProblem ??= `"arguments" arrived as a value that is ${problem.reason} at ${problem.path}`;
    return { delta: '' };
  }
  const text = JSON.stringify(value) ?? String(value);
  if (call.objectArguments === text) return { delta: '' };
  const first = call.objectArguments === undefined;
  call.objectArguments = text;
  if (!first) return { delta: text };
  return {
    delta: text,
    warning: {
      code: 'TOOL_CALL_ARGUMENTS_NOT_STRING',
      message: `${where}: "arguments" arrived as ${Array.isArray(value) ? 'an array' : typeof value}, not a string; serialised it as JSON`,
      details: { position: call.position, value },
    },
  };
}

/**
 * Kept only when JSON carries it unchanged: it goes into the message metadata, which is stored
 * and sent back, and a deeply nested value would make those steps throw `RangeError`. Returns the
 * warning for a value that was dropped.
 */
export function takeExtraContent(
  call: ToolCallState,
  extra: unknown,
  where: string,
): AccumulatorWarning | undefined {
  const problem = findNonJsonValue(extra, 'extra_content');
  if (problem === undefined) {
    call.extraContent = extra;
    return undefined;
  }
  return {
    code: 'TOOL_CALL_EXTRA_CONTENT_DROPPED',
    message: `${where}: "extra_content" was dropped, JSON cannot carry it (${problem.reason} at ${problem.path})`,
    details: { position: call.position, path: problem.path, reason: problem.reason },
  };
}
