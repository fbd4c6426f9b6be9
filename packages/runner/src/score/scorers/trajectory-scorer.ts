import { invalidOption } from '../../errors/invalid-option.js';
import { ScoreError } from '../../errors/score-error.js';
import type { ScoredToolCall, Scorer, ScoreValue } from '../scorer.js';
import { type ExpectedOption, expectedValue } from './expected-value.js';
import {
  type ArgumentMatch,
  type ExpectedToolCall,
  matchTrajectory,
  type TrajectoryMode,
} from './match-trajectory.js';
import { shown } from './shown.js';

export interface TrajectoryScorerOptions {
  /** The scorer's name in `scores.jsonl` (default `trajectory`). */
  readonly name?: string;
  /**
   * The calls expected, `[{ name, arguments? }]`: a field of the item (default
   * `expectedToolCalls`) or a function. An item without them gets no score, never a score
   * against an empty list.
   */
  readonly expected?: ExpectedOption<readonly ExpectedToolCall[]>;
  /** `in-order` (default) or `unordered`. */
  readonly mode?: TrajectoryMode;
  /**
   * Whether calls nobody expected are free (default true): the score is the share of expected
   * calls matched. With false, each extra call counts against it: matched / max(expected, made).
   */
  readonly allowExtra?: boolean;
  /** How expected arguments are compared: `subset` (default) or `exact`. */
  readonly arguments?: ArgumentMatch;
}

function checkExpected(
  scorer: string,
  value: unknown,
  itemId: string,
): readonly ExpectedToolCall[] {
  const ok =
    Array.isArray(value) &&
    value.every(
      (call: unknown) =>
        typeof call === 'object' &&
        call !== null &&
        typeof (call as ExpectedToolCall).name === 'string' &&
        ((call as ExpectedToolCall).arguments === undefined ||
          (typeof (call as ExpectedToolCall).arguments === 'object' &&
            (call as ExpectedToolCall).arguments !== null &&
            !Array.isArray((call as ExpectedToolCall).arguments))),
    );
  if (!ok)
    throw ScoreError.inputMissing(
      scorer,
      `the expected tool calls of item "${itemId}" are not a list of { name, arguments? }`,
    );
  return value as readonly ExpectedToolCall[];
}

function callText(call: ExpectedToolCall | ScoredToolCall): string {
  return call.arguments === undefined ? call.name : `${call.name}(${shown(call.arguments)})`;
}

function list(calls: readonly (ExpectedToolCall | ScoredToolCall)[]): string {
  return calls.map(callText).join(', ');
}

/**
 * Scores the thread's tool calls against the expected ones, from the item every time (a scorer
 * that lost them would score every trajectory 1). The score is the share of expected calls
 * matched (with `allowExtra: false`, of the larger of expected and made); the reason lists the
 * calls missing, out of order and extra; `details` holds the lists themselves.
 */
export function trajectoryScorer(options: TrajectoryScorerOptions = {}): Scorer {
  const name = options.name ?? 'trajectory';
  const expectedOf = options.expected ?? 'expectedToolCalls';
  const mode = options.mode ?? 'in-order';
  if (mode !== 'in-order' && mode !== 'unordered')
    throw invalidOption(
      'trajectoryScorer.mode',
      `must be "in-order" or "unordered", got ${String(mode)}`,
    );
  const how = options.arguments ?? 'subset';
  if (how !== 'subset' && how !== 'exact')
    throw invalidOption(
      'trajectoryScorer.arguments',
      `must be "subset" or "exact", got ${String(how)}`,
    );
  const allowExtra = options.allowExtra ?? true;
  return {
    name,
    score(input): ScoreValue {
      const expected = checkExpected(name, expectedValue(name, expectedOf, input), input.itemId);
      const calls = input.toolCalls;
      const match = matchTrajectory(expected, calls, mode, how);
      const out = allowExtra ? expected.length : Math.max(expected.length, calls.length);
      const score = out === 0 ? 1 : match.matched / out;
      const problems: string[] = [];
      const gone = match.missing.filter((call) => !match.outOfOrder.includes(call));
      if (gone.length) problems.push(`missing: ${list(gone)}`);
      if (match.outOfOrder.length) problems.push(`out of order: ${list(match.outOfOrder)}`);
      if (match.extra.length)
        problems.push(`${allowExtra ? 'extra (allowed)' : 'extra'}: ${list(match.extra)}`);
      const made = `${match.matched} of ${expected.length} expected calls${mode === 'in-order' ? ' in order' : ''}`;
      return {
        score,
        reason: problems.length ? `${made}; ${problems.join('; ')}` : made,
        details: {
          mode,
          allowExtra,
          expected,
          called: calls.map((call) => ({ name: call.name, arguments: call.arguments })),
          matched: match.matched,
          missing: match.missing,
          outOfOrder: match.outOfOrder,
          extra: match.extra.map((call) => ({ name: call.name, arguments: call.arguments })),
        },
      };
    },
  };
}
