import type { ToolCallState } from './tool-call-state.js';
import type { RawChoice, RawChunk, RawDelta, RawFunction, RawToolCallFragment } from './types.js';

function isBlank(value: unknown): boolean {
  return value === undefined || value === null || value === '';
}

/**
 * The arguments text of a chunk with the shape nearly every chunk of a tool-call stream has: one
 * choice whose delta is one more arguments fragment for `last`, the call the previous fragment
 * went to (same index, no new id, name, type or extra content, no text, no finish reason, no
 * usage, still within `maxArgumentsLength`). Undefined for anything else, which then takes the
 * general path; applying the text returned has the effect the general path would have.
 */
export function continuationArguments(
  chunk: RawChunk,
  last: ToolCallState,
  maxArgumentsLength: number,
): string | undefined {
  const choices = chunk.choices;
  if (!Array.isArray(choices) || choices.length !== 1 || chunk.error != null) return undefined;
  if (chunk.usage != null) return undefined;
  const choice = choices[0] as RawChoice | null;
  if (typeof choice !== 'object' || choice === null) return undefined;
  const index = choice.index;
  if ((index !== 0 && index != null) || choice.finish_reason != null) return undefined;
  const d = choice.delta as RawDelta | null | undefined;
  if (typeof d !== 'object' || d === null) return undefined;
  const fragments = d.tool_calls;
  if (!Array.isArray(fragments) || fragments.length !== 1) return undefined;
  if (!isBlank(d.content) || !isBlank(d.reasoning_content) || !isBlank(d.reasoning))
    return undefined;
  if (!isBlank(d.refusal)) return undefined;
  const f = fragments[0] as RawToolCallFragment | null;
  if (typeof f !== 'object' || f === null || f.index !== last.index || last.index < 0)
    return undefined;
  const fn = f.function as RawFunction | null | undefined;
  if (typeof fn !== 'object' || fn === null) return undefined;
  const args = fn.arguments;
  if (typeof args !== 'string') return undefined;
  const id = f.id;
  if (!isBlank(id) && id !== last.id && id !== 'null') return undefined;
  const name = fn.name;
  if (!isBlank(name) && name !== last.name) return undefined;
  const type = f.type;
  if (!isBlank(type) && type !== last.type) return undefined;
  if (last.extraContent === undefined && f.extra_content != null) return undefined;
  if (last.arguments.length + args.length > maxArgumentsLength) return undefined;
  return args;
}
