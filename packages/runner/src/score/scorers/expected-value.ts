import { ScoreError } from '../../errors/score-error.js';
import type { ScorerInput } from '../scorer.js';

/** Where a scorer finds what it expects: a field of the item, or a function of the input. */
export type ExpectedOption<T = unknown> = string | ((input: ScorerInput) => T);

/**
 * The expected value of `option` for the input. A field the item does not have (or `undefined`
 * from a function) is `ScoreError` `SCORE_INPUT_MISSING`: an item that says nothing of what is
 * expected gets no score, never one made against nothing.
 */
export function expectedValue<T>(scorer: string, option: ExpectedOption<T>, input: ScorerInput): T {
  let value: unknown;
  if (typeof option === 'function') value = option(input);
  else {
    const item = input.item;
    value =
      typeof item === 'object' && item !== null && Object.hasOwn(item, option)
        ? (item as Record<string, unknown>)[option]
        : undefined;
  }
  if (value === undefined)
    throw ScoreError.inputMissing(
      scorer,
      typeof option === 'function'
        ? `its expected value function gave nothing for item "${input.itemId}"`
        : `item "${input.itemId}" has no "${option}" field to score against`,
    );
  return value as T;
}
