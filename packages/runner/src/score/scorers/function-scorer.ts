import { invalidOption } from '../../errors/invalid-option.js';
import type { Scorer, ScorerInput, ScoreValue } from '../scorer.js';

/** What a function scorer may return: a score, a pass (true = 1), or a whole `ScoreValue`. */
export type FunctionScore = number | boolean | ScoreValue;

const PASS: ScoreValue = Object.freeze({ score: 1 });
const FAIL: ScoreValue = Object.freeze({ score: 0 });

function scoreValueOf(answer: FunctionScore): ScoreValue {
  if (typeof answer === 'boolean') return answer ? PASS : FAIL;
  if (typeof answer === 'number') return { score: answer };
  return answer;
}

/**
 * A scorer from a function of the finished item. It may return a number from 0 to 1, a boolean,
 * or `{ score, reason?, details? }`, at once or as a promise; anything else (or a throw) gives no
 * score for the item. A function that answers at once is called with no timer at all.
 */
export function functionScorer(
  name: string,
  fn: (input: ScorerInput) => FunctionScore | Promise<FunctionScore>,
): Scorer {
  if (typeof name !== 'string' || name.trim() === '')
    throw invalidOption('functionScorer.name', 'must be a non-empty string');
  if (typeof fn !== 'function') throw invalidOption('functionScorer.fn', 'must be a function');
  return {
    name,
    score(input) {
      const answer = fn(input);
      return answer instanceof Promise ? answer.then(scoreValueOf) : scoreValueOf(answer);
    },
  };
}
