import { invalidOption } from '../../errors/invalid-option.js';
import type { Scorer, ScorerInput, ScoreValue } from '../scorer.js';
import { sameJson } from './canonical-json.js';
import { type ExpectedOption, expectedValue } from './expected-value.js';
import { shown } from './shown.js';

export interface ExactMatchOptions {
  /** The scorer's name in `scores.jsonl` (default `exact-match`). */
  readonly name?: string;
  /** What the output must equal: a field of the item (default `expected`) or a function. */
  readonly expected?: ExpectedOption;
  /** What is compared (default the item's output, `result.output`). */
  readonly actual?: (input: ScorerInput) => unknown;
  /** Compare strings without leading and trailing white space (default true). */
  readonly trim?: boolean;
  /** Compare strings without regard to case (default false). */
  readonly ignoreCase?: boolean;
}

/**
 * Every match's value, one frozen object: a run with a scorer per item makes none. No reason: a
 * 1 says it, and the line stays short.
 */
const MATCHES: ScoreValue = Object.freeze({ score: 1 });

/**
 * 1 when the output equals the expected value, else 0 with a reason quoting both. Strings are compared after `trim` and
 * `ignoreCase`; other values as JSON, whatever the order of their keys. An item without output
 * (one that failed) scores 0; one without an expected value gets no score (`SCORE_INPUT_MISSING`).
 */
export function exactMatch(options: ExactMatchOptions = {}): Scorer {
  const name = options.name ?? 'exact-match';
  const expectedOf = options.expected ?? 'expected';
  if (typeof expectedOf !== 'string' && typeof expectedOf !== 'function')
    throw invalidOption('exactMatch.expected', 'must be a field name or a function');
  const trim = options.trim ?? true;
  const ignoreCase = options.ignoreCase ?? false;
  const normal = (text: string): string => {
    const trimmed = trim ? text.trim() : text;
    return ignoreCase ? trimmed.toLowerCase() : trimmed;
  };
  return {
    name,
    score(input): ScoreValue {
      const expected = expectedValue(name, expectedOf, input);
      const actual = options.actual ? options.actual(input) : input.result.output;
      if (actual === undefined)
        return { score: 0, reason: `no output (the item is ${input.result.status})` };
      const equal =
        typeof expected === 'string' && typeof actual === 'string'
          ? normal(expected) === normal(actual)
          : sameJson(expected, actual);
      return equal
        ? MATCHES
        : { score: 0, reason: `expected ${shown(expected)}, got ${shown(actual)}` };
    },
  };
}
