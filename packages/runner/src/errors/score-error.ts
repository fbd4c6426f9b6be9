import { SkeinError, type SkeinErrorOptions } from '@skein/spec';

/**
 * Why one scorer gave no score for one item. The item and the run go on; the score is missing
 * from `scores.jsonl` (the attempt is a line of `score-errors.jsonl`), so a resumed run or
 * `skein score` tries it again.
 *
 * - `SCORER_FAILED`: the scorer threw or rejected; its error is the `cause`.
 * - `SCORER_TIMEOUT`: it gave no score within its time limit (`timeoutMs`); retryable.
 * - `SCORE_INVALID`: it returned something that is not a score (a number from 0 to 1, an
 *   optional string reason, details JSON can carry).
 * - `SCORE_INPUT_MISSING`: what it scores against is not there: the item has no expected value or
 *   trajectory, or the thread is not in the store.
 * - `VERDICT_INVALID`: a model-graded scorer's model answered something that is not the verdict
 *   asked for (`answer` holds the start of it); retryable, a model may answer well next time.
 */
export type ScoreErrorCode =
  | 'SCORER_FAILED'
  | 'SCORER_TIMEOUT'
  | 'SCORE_INVALID'
  | 'SCORE_INPUT_MISSING'
  | 'VERDICT_INVALID';

/** What a ScoreError can say; each code has some of these. */
export interface ScoreErrorFacts {
  /** The scorer's name. */
  readonly scorer?: string;
  /** The item scored, once the run knows it (a scorer throwing leaves it to the run). */
  readonly itemId?: string;
  /** The time limit that ran out (`SCORER_TIMEOUT`). */
  readonly timeoutMs?: number;
  /** The model's answer, cut to 500 characters (`VERDICT_INVALID`). */
  readonly answer?: string;
}

/** The longest model answer a `VERDICT_INVALID` error keeps. */
const MAX_ANSWER = 500;

/** A scorer gave no score for an item: the run records the failure and goes on. */
export class ScoreError<Code extends ScoreErrorCode = ScoreErrorCode> extends SkeinError<Code> {
  static override readonly errorName = 'ScoreError';
  declare readonly scorer?: string;
  declare readonly itemId?: string;
  declare readonly timeoutMs?: number;
  declare readonly answer?: string;

  constructor(
    code: Code,
    message: string,
    facts: ScoreErrorFacts = {},
    options: SkeinErrorOptions = {},
  ) {
    super(code, message, { ...options, facts });
  }

  /** What a scorer needs is not in the item or the thread. */
  static inputMissing(scorer: string, problem: string): ScoreError<'SCORE_INPUT_MISSING'> {
    return new ScoreError('SCORE_INPUT_MISSING', `Scorer ${scorer}: ${problem}`, { scorer });
  }

  /** The model of a model-graded scorer did not answer with a verdict. */
  static verdict(scorer: string, problem: string, answer: string): ScoreError<'VERDICT_INVALID'> {
    const kept = answer.length > MAX_ANSWER ? `${answer.slice(0, MAX_ANSWER)}…` : answer;
    return new ScoreError(
      'VERDICT_INVALID',
      `Scorer ${scorer}: the model's answer is not a verdict: ${problem} (answer: ${JSON.stringify(kept)})`,
      { scorer, answer: kept },
      { retryable: true },
    );
  }
}
