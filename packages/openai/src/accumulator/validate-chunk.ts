import {
  invalidChoiceIndex,
  invalidChunk,
  invalidToolCallIndex,
} from '../errors/provider-errors.js';
import type { RawChoice, RawDelta, RawToolCallFragment } from './types.js';

export interface ChunkBounds {
  readonly maxChoiceIndex: number;
  readonly maxToolCallIndex: number;
}

function isIndex(value: unknown, max: number): boolean {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= max;
}

function fragmentWhere(n: number, i: number, j: number): string {
  return `chunk ${n}, choices[${i}].delta.tool_calls[${j}]`;
}

function validateFragments(fragments: unknown, bounds: ChunkBounds, n: number, i: number): void {
  if (fragments === undefined || fragments === null) return;
  if (!Array.isArray(fragments)) {
    throw invalidChunk(`chunk ${n}, choices[${i}].delta.tool_calls`, 'not an array');
  }
  for (let j = 0; j < fragments.length; j++) {
    const fragment: unknown = fragments[j];
    if (typeof fragment !== 'object' || fragment === null || Array.isArray(fragment)) {
      throw invalidChunk(fragmentWhere(n, i, j), 'not an object');
    }
    const f = fragment as RawToolCallFragment;
    const fn = f.function;
    if (fn !== undefined && fn !== null && (typeof fn !== 'object' || Array.isArray(fn))) {
      throw invalidChunk(`${fragmentWhere(n, i, j)}.function`, 'not an object');
    }
    const index = f.index;
    if (index !== undefined && index !== null && !isIndex(index, bounds.maxToolCallIndex)) {
      throw invalidToolCallIndex(index, `${fragmentWhere(n, i, j)}.index`, bounds.maxToolCallIndex);
    }
  }
}

/**
 * Checks a chunk's shape before anything of it is applied, so a malformed chunk leaves the
 * accumulator as it was. Returns the `choices` array (empty when there is none).
 */
export function validateChoices(
  choices: unknown,
  bounds: ChunkBounds,
  n: number,
): readonly unknown[] {
  if (choices === undefined || choices === null) return [];
  if (!Array.isArray(choices)) throw invalidChunk(`chunk ${n}`, '"choices" is not an array');
  for (let i = 0; i < choices.length; i++) {
    const choice: unknown = choices[i];
    if (typeof choice !== 'object' || choice === null || Array.isArray(choice)) {
      throw invalidChunk(`chunk ${n}, choices[${i}]`, 'not an object');
    }
    const c = choice as RawChoice;
    const index = c.index;
    if (index !== undefined && index !== null && !isIndex(index, bounds.maxChoiceIndex)) {
      throw invalidChoiceIndex(index, `chunk ${n}, choices[${i}].index`, bounds.maxChoiceIndex);
    }
    const delta = c.delta;
    if (delta === undefined || delta === null) continue;
    if (typeof delta !== 'object' || Array.isArray(delta)) {
      throw invalidChunk(`chunk ${n}, choices[${i}].delta`, 'not an object');
    }
    validateFragments((delta as RawDelta).tool_calls, bounds, n, i);
  }
  return choices;
}
