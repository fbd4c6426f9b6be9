import { exactMatch, functionScorer, type Scorer } from '@skein/runner';

/**
 * The code scorers of the scoring benchmark: an exact match of the output (the five-node
 * workflow's output is its counter, 2) and a function of the item. Both answer at once, so the
 * run pays for scoring itself and for writing `scores.jsonl`, not for waiting.
 */
export function codeScorers(): Scorer[] {
  return [
    exactMatch({ expected: () => 2 }),
    functionScorer('short-question', (input) => String(input.item).length < 40),
  ];
}
